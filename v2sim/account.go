package v2sim

import "net/http"

func (s *Server) getSSHKeys(c *call) *reply {
	return jsonReply(http.StatusOK, map[string]any{"keys": nonNilStrings(append([]string(nil), s.st.sshKeys...))})
}

func (s *Server) putSSHKeys(c *call) *reply {
	body, rep := decodeBody(c.body, updateSSHKeysSchema)
	if rep != nil {
		return rep
	}
	keys, _ := getStrings(body, "keys")
	s.st.sshKeys = nonNilStrings(keys)
	return jsonReply(http.StatusOK, map[string]any{"keys": s.st.sshKeys})
}

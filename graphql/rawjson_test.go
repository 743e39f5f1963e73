package graphql

import (
	"encoding/json"
	"testing"

	"github.com/v1gateway/v1gateway/podjson"
)

// The plain-form writers of a pod's env and ports (rawjson.go) answer
// exactly what the exact path (encoding/json) answers, whatever the JSON
// (valid JSON: what podjson and encoding/json keep raw; the writers are
// given nothing else).

// exactEnv is a pod's env as the exact path writes it.
func exactEnv(raw []byte) string {
	b := []byte{'['}
	for i, s := range envStrings(raw) {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return string(append(b, ']'))
}

// exactPortTypes are the protocols of ports 8888, 22 and 80 as the exact
// path reads them.
func exactPortTypes(raw []byte) [3]string {
	types := portTypes(raw)
	var out [3]string
	for i, p := range []int{8888, 22, 80} {
		if out[i] = types[p]; out[i] == "" {
			out[i] = "tcp"
		}
	}
	return out
}

func checkRawJSONWriters(t *testing.T, raw []byte) {
	t.Helper()
	if len(raw) > 0 && !json.Valid(raw) {
		return // never given to the writers
	}
	env := podEnv(raw)
	if got, want := string(env.appendJSON([]byte("x"))), "x"+exactEnv(raw); got != want {
		t.Errorf("env %q: %s, want %s", raw, got, want)
	}
	ports := podPorts(raw)
	if got, want := string(ports.appendJSON([]byte("x"))), string(appendString([]byte("x"), portString(raw))); got != want {
		t.Errorf("ports %q: %s, want %s", raw, got, want)
	}
	rps := []podjson.V2RuntimePort{{Private: 8888}, {Private: 22}, {Private: 80}}
	rs := []runtimePort{{p: &rps[0]}, {p: &rps[1]}, {p: &rps[2]}}
	setPortTypes(rs, raw)
	if got, want := [3]string{rs[0].typ, rs[1].typ, rs[2].typ}, exactPortTypes(raw); got != want {
		t.Errorf("port types %q: %v, want %v", raw, got, want)
	}
}

var rawJSONSeeds = []string{
	`{"JUPYTER_ENABLE_LAB":"yes","MODEL_NAME":"llama-3-8b"}`,
	`{}`, `[]`, `null`, ``, ` { "A" : "1" , "B":"" } `,
	`{"A":"a\"quote","B":"tab\there"}`, `{"A":"é – ü"}`, "{\"A\":\"\xff\"}", `{"A":1}`, `{"A":"x","A":"y"}`,
	`{"A":"x",}`, `{"A":"x"} x`, `{"A" "x"}`, `{"A":"x"`, "{\"A\":\"x\"}\n", "{\"A\":\t\"x\"}", "[\"22/tcp\"\r]",
	`["8888/http","22/tcp"]`, `["22/http","22"]`, `["22/http","22/"]`, `["8888/http", 22]`, `["80/udp/x"]`, `["+22/http"]`,
	`["a,b","c"]`, `[ "22/tcp" ]`, `["22/tcp"]]`, `[,]`, `["\u0032\u0032/http"]`,
}

func TestRawJSONWritersMatchTheExactPath(t *testing.T) {
	for _, s := range rawJSONSeeds {
		checkRawJSONWriters(t, []byte(s))
	}
}

func FuzzRawJSONWriters(f *testing.F) {
	for _, s := range rawJSONSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) { checkRawJSONWriters(t, raw) })
}

package v2sim

import (
	"net/http"
	"regexp"
	"sort"
	"time"
)

// registry is a container registry credential; username and password are
// write-only and never leave the simulator.
type registry struct {
	seq                int64
	id, name           string
	username, password string
}

type registryJSON struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type delegation struct {
	seq       int64
	id        string
	name      *string
	awsUser   string
	repo      string
	tag       string
	region    string
	createdAt time.Time
}

type delegationJSON struct {
	ID                string  `json:"id"`
	Name              *string `json:"name"`
	DelegatorUserID   string  `json:"delegatorUserId"`
	AwsUser           string  `json:"awsUser"`
	Repository        string  `json:"repository"`
	Tag               string  `json:"tag"`
	AwsRegion         string  `json:"awsRegion"`
	DockerRegistryURI string  `json:"dockerRegistryUri"`
	CreatedAt         string  `json:"createdAt"`
}

// accountUserID is the simulated account's user id.
const accountUserID = "user_2x7kq9m4vd8n3p"

func (d *delegation) render() delegationJSON {
	return delegationJSON{
		ID: d.id, Name: d.name, DelegatorUserID: accountUserID, AwsUser: d.awsUser,
		Repository: d.repo, Tag: d.tag, AwsRegion: d.region,
		DockerRegistryURI: d.awsUser + ".dkr.ecr." + d.region + ".amazonaws.com",
		CreatedAt:         ts(d.createdAt),
	}
}

func (s *Server) sortedRegistries() []*registry {
	out := make([]*registry, 0, len(s.st.registries))
	for _, r := range s.st.registries {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	return out
}

func (s *Server) listRegistries(c *call) *reply {
	out := []registryJSON{}
	for _, r := range s.sortedRegistries() {
		out = append(out, registryJSON{ID: r.id, Name: r.name})
	}
	return jsonReply(http.StatusOK, map[string]any{"registries": out})
}

func (s *Server) getRegistry(c *call) *reply {
	r := s.st.registries[c.param("id")]
	if r == nil {
		return notFound("container registry credential", c.param("id"))
	}
	return jsonReply(http.StatusOK, registryJSON{ID: r.id, Name: r.name})
}

func (s *Server) createRegistry(c *call) *reply {
	body, rep := decodeBody(c.body, createRegistrySchema)
	if rep != nil {
		return rep
	}
	// The document does not say whether names are unique: the simulator
	// accepts duplicates (its choice).
	r := &registry{seq: s.st.nextSeq(), id: s.newID(10)}
	r.name, _ = getStr(body, "name")
	r.username, _ = getStr(body, "username")
	r.password, _ = getStr(body, "password")
	s.st.registries[r.id] = r
	return jsonReply(http.StatusCreated, registryJSON{ID: r.id, Name: r.name})
}

func (s *Server) deleteRegistry(c *call) *reply {
	r := s.st.registries[c.param("id")]
	if r == nil {
		return notFound("container registry credential", c.param("id"))
	}
	for _, p := range s.sortedPods(c.now, func(*pod) bool { return true }) {
		if p.container.registry == r.id {
			return badRequest("container registry credential %q is in use by pod %s and cannot be deleted", r.id, p.id)
		}
	}
	for _, t := range s.st.templates {
		if t.container.registry == r.id {
			t.container.registry = ""
		}
	}
	// Simulator's choice: endpoints lose the reference too, like templates
	// (the document: templates "silently lose the reference"; an endpoint's
	// container settings are its bound template's). The document does not
	// say; keeping a dangling id would make every later PATCH fail.
	for _, e := range s.st.endpoints {
		if e.container.registry == r.id {
			e.container.registry = ""
		}
	}
	delete(s.st.registries, r.id)
	return noContent()
}

var ecrARN = regexp.MustCompile(`^arn:aws:ecr:([a-z0-9-]+):(\d{12}):repository/([a-z0-9][a-z0-9._/-]*?)(?::([A-Za-z0-9_.-]+))?$`)

func (s *Server) listDelegations(c *call) *reply {
	ds := make([]*delegation, 0, len(s.st.delegations))
	for _, d := range s.st.delegations {
		ds = append(ds, d)
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i].seq < ds[j].seq })
	out := []delegationJSON{}
	for _, d := range ds {
		out = append(out, d.render())
	}
	return jsonReply(http.StatusOK, map[string]any{"delegations": out})
}

func (s *Server) createDelegation(c *call) *reply {
	body, rep := decodeBody(c.body, createDelegationSchema)
	if rep != nil {
		return rep
	}
	res, _ := getStr(body, "resource")
	m := ecrARN.FindStringSubmatch(res)
	if m == nil {
		return badRequest("resource: expected an ECR repository ARN such as arn:aws:ecr:us-east-2:123456789012:repository/my/repo")
	}
	d := &delegation{seq: s.st.nextSeq(), id: s.newID(14), region: m[1], awsUser: m[2], repo: m[3], tag: m[4], createdAt: c.now}
	if d.tag == "" {
		d.tag = "latest"
	}
	if n, ok := getStr(body, "name"); ok {
		d.name = strPtr(n)
	}
	s.st.delegations[d.id] = d
	return jsonReply(http.StatusCreated, d.render())
}

func (s *Server) revokeDelegation(c *call) *reply {
	d := s.st.delegations[c.param("id")]
	if d == nil {
		return notFound("delegation", c.param("id"))
	}
	delete(s.st.delegations, d.id)
	return noContent()
}

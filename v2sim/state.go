package v2sim

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// state is the single simulated account plus the public template catalog.
// Every field is guarded by Server.mu.
type state struct {
	seq int64
	ids map[string]bool

	pods        map[string]*pod
	clusters    map[string]*cluster
	endpoints   map[string]*endpoint
	templates   map[string]*template
	volumes     map[string]*volume
	registries  map[string]*registry
	delegations map[string]*delegation
	sshKeys     []string
	ledger      []*usage
}

func newState() *state {
	st := &state{
		ids:         map[string]bool{},
		pods:        map[string]*pod{},
		clusters:    map[string]*cluster{},
		endpoints:   map[string]*endpoint{},
		templates:   map[string]*template{},
		volumes:     map[string]*volume{},
		registries:  map[string]*registry{},
		delegations: map[string]*delegation{},
		sshKeys:     []string{},
	}
	for _, t := range publicTemplates() {
		t.seq = st.nextSeq()
		st.templates[t.id] = t
		st.ids[t.id] = true
	}
	return st
}

func (st *state) nextSeq() int64 { st.seq++; return st.seq }

func (st *state) idTaken(id string) bool { return st.ids[id] }

func (st *state) sortedTemplates() []*template {
	out := make([]*template, 0, len(st.templates))
	for _, t := range st.templates {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	return out
}

// ---------------------------------------------------------------------------
// container configuration shared by pods, clusters, endpoints and templates

type containerCfg struct {
	image, args string
	disk        int
	ports       []string
	env         map[string]string
	registry    string // "" = none
}

func (cc containerCfg) clone() containerCfg {
	out := cc
	out.ports = append([]string{}, cc.ports...)
	out.env = make(map[string]string, len(cc.env))
	for k, v := range cc.env {
		out.env[k] = v
	}
	return out
}

// applyBody copies the container fields present in a validated body.
func (cc *containerCfg) applyBody(m map[string]any) {
	if v, ok := getStr(m, "image"); ok {
		cc.image = v
	}
	if v, ok := getStr(m, "args"); ok {
		cc.args = v
	}
	if v, ok := getInt(m, "disk"); ok {
		cc.disk = v
	}
	if v, ok := getStrings(m, "ports"); ok {
		cc.ports = v
	}
	if v, ok := getStrMap(m, "env"); ok {
		cc.env = v
	}
	if has(m, "registry") {
		v, _ := getStr(m, "registry")
		cc.registry = v
	}
}

// applyTemplate resolves a template into the configuration the way the
// contract describes: the template's settings, then the body's explicit
// fields win, except env which is merged per key (body wins).
func (cc *containerCfg) applyTemplate(t *template, body map[string]any) {
	tc := t.container.clone()
	if !t.owned {
		tc.registry = ""
	}
	bodyEnv, hasEnv := getStrMap(body, "env")
	*cc = tc
	cc.applyBody(body)
	env := map[string]string{}
	for k, v := range tc.env {
		env[k] = v
	}
	if hasEnv {
		for k, v := range bodyEnv {
			env[k] = v
		}
	}
	cc.env = env
}

func (cc containerCfg) registryJSON() *string {
	if cc.registry == "" {
		return nil
	}
	return strPtr(cc.registry)
}

func nonNilStrings(v []string) []string {
	if v == nil {
		return []string{}
	}
	return v
}

func nonNilMap(v map[string]string) map[string]string {
	if v == nil {
		return map[string]string{}
	}
	return v
}

var portRe = regexp.MustCompile(`^(\d{1,5})/(http|tcp|udp)$`)

// checkContainer applies the business rules the schemas cannot express.
func (s *Server) checkContainer(cc containerCfg) *reply {
	for i, p := range cc.ports {
		m := portRe.FindStringSubmatch(p)
		if m == nil {
			return badRequest("ports[%d] %q: expected port/protocol, e.g. 8888/http or 22/tcp", i, p)
		}
		if n, _ := strconv.Atoi(m[1]); n < 1 || n > 65535 {
			return badRequest("ports[%d] %q: port must be between 1 and 65535", i, p)
		}
	}
	if cc.registry != "" && s.st.registries[cc.registry] == nil {
		return badRequest("container registry credential %q not found", cc.registry)
	}
	if cc.disk > 100000 { // simulator's choice: the document sets no maximum
		return badRequest("disk %d GB exceeds the 100000 GB container disk limit", cc.disk)
	}
	return nil
}

// checkContainerPatch is checkContainer for a PATCH, which "changes only the
// fields present": a registry credential the resource already had is not
// checked again (it cannot be stale: deleting a credential clears it from
// templates and endpoints and is refused while a pod uses it).
func (s *Server) checkContainerPatch(prev, cc containerCfg) *reply {
	if cc.registry == prev.registry {
		cc.registry = ""
	}
	return s.checkContainer(cc)
}

// ---------------------------------------------------------------------------
// mounts

type persistentMount struct {
	size int
	path string
}

type networkMount struct {
	volumeID, path string
}

type mounts struct {
	persistent *persistentMount
	network    *networkMount
}

type persistentJSON struct {
	Size int    `json:"size"`
	Path string `json:"path"`
}

type networkJSON struct {
	VolumeID string `json:"volumeId"`
	Path     string `json:"path"`
}

type mountsJSON struct {
	Persistent *persistentJSON `json:"persistent,omitempty"`
	Network    []networkJSON   `json:"network,omitempty"`
}

func (mt mounts) render() mountsJSON {
	var out mountsJSON
	if mt.persistent != nil {
		out.Persistent = &persistentJSON{Size: mt.persistent.size, Path: mt.persistent.path}
	}
	if mt.network != nil {
		out.Network = []networkJSON{{VolumeID: mt.network.volumeID, Path: mt.network.path}}
	}
	return out
}

func parsePersistent(m map[string]any) *persistentMount {
	size, _ := getInt(m, "size")
	path, _ := getStr(m, "path")
	return &persistentMount{size: size, path: path}
}

// parseCreateMounts reads a validated Mounts object of a create and applies
// the create-time rules (both kinds → 400, persistent on CPU → 400, unknown
// volume → 400).
func (s *Server) parseCreateMounts(body map[string]any, cpu bool) (mounts, *volume, *reply) {
	var mt mounts
	m, ok := getObj(body, "mounts")
	if !ok {
		return mt, nil, nil
	}
	if has(m, "persistent") && has(m, "network") {
		return mt, nil, badRequest("mounts: at most one of persistent or network may be set")
	}
	if p, ok := getObj(m, "persistent"); ok {
		if cpu {
			return mt, nil, badRequest("mounts.persistent is invalid when cpu is set: CPU pods support container disk and network volumes only")
		}
		mt.persistent = parsePersistent(p)
	}
	var vol *volume
	if arr, ok := m["network"].([]any); ok && len(arr) > 0 {
		nm, _ := arr[0].(map[string]any)
		id, _ := getStr(nm, "volumeId")
		path, _ := getStr(nm, "path")
		vol = s.st.volumes[id]
		if vol == nil {
			return mt, nil, badRequest("mounts.network[0].volumeId: network volume %q not found", id)
		}
		mt.network = &networkMount{volumeID: id, path: path}
	}
	return mt, vol, nil
}

// patchMounts applies the PATCH rules of the Mounts schema to cur.
func patchMounts(cur mounts, body map[string]any) (mounts, *reply) {
	m, ok := getObj(body, "mounts")
	if !ok || len(m) == 0 {
		return cur, nil // omitted or {}: unchanged
	}
	if has(m, "persistent") && has(m, "network") {
		return cur, badRequest("mounts: at most one of persistent or network may be set")
	}
	out := cur
	if p, ok := getObj(m, "persistent"); ok {
		if cur.persistent == nil {
			return cur, badRequest("mounts.persistent: the mount kind is fixed at create and this pod has no persistent mount")
		}
		out.persistent = parsePersistent(p)
	}
	if arr, ok := m["network"].([]any); ok {
		if len(arr) == 0 {
			return cur, badRequest("mounts.network: an empty list is rejected; clearing mounts is not supported")
		}
		if cur.network == nil {
			return cur, badRequest("mounts.network: the mount kind is fixed at create and this pod has no network mount")
		}
		nm, _ := arr[0].(map[string]any)
		id, _ := getStr(nm, "volumeId")
		path, _ := getStr(nm, "path")
		if id != cur.network.volumeID {
			return cur, badRequest("mounts.network[0].volumeId: the network volume of a mount is immutable (currently %q)", cur.network.volumeID)
		}
		out.network = &networkMount{volumeID: id, path: path}
	}
	return out, nil
}

// ---------------------------------------------------------------------------
// placement

// checkDataCenterIDs rejects unknown data centers (simulator's choice: the
// document does not say what an unknown preferred data center does).
func checkDataCenterIDs(ids []string) *reply {
	for i, id := range ids {
		if findDC(id) == nil {
			return badRequest("dataCenterIds[%d]: unknown data center %q (see GET /v2/catalog/datacenters)", i, id)
		}
	}
	return nil
}

// placementDCs returns the data centers a resource may be placed in: first
// the listed ones (dataCenterIds, in the caller's order), then the others.
// Under DataCentersStrict there are no others when a list is given. A
// network volume's data center and global networking are hard constraints
// on both (simulator's choice: a network volume lives in one data center,
// so a pod mounting it runs there; the document does not say so).
func (s *Server) placementDCs(prefs []string, volDC string, needGlobalNet bool) (first, rest []*dataCenter, rep *reply) {
	if err := checkDataCenterIDs(prefs); err != nil {
		return nil, nil, err
	}
	for _, id := range prefs {
		first = append(first, findDC(id))
	}
	for _, dc := range dataCenters {
		if len(prefs) == 0 || (!s.strictDCs && !contains(prefs, dc.id)) {
			rest = append(rest, dc)
		}
	}
	keep := func(dcs []*dataCenter, ok func(*dataCenter) bool) []*dataCenter {
		var out []*dataCenter
		for _, dc := range dcs {
			if ok(dc) {
				out = append(out, dc)
			}
		}
		return out
	}
	if volDC != "" {
		first = keep(first, func(dc *dataCenter) bool { return dc.id == volDC })
		rest = keep(rest, func(dc *dataCenter) bool { return dc.id == volDC })
		if len(first)+len(rest) == 0 {
			return nil, nil, badRequest("the network volume is in data center %s, which is not among dataCenterIds", volDC)
		}
	}
	if needGlobalNet {
		first = keep(first, func(dc *dataCenter) bool { return dc.globalNetwork })
		rest = keep(rest, func(dc *dataCenter) bool { return dc.globalNetwork })
		if len(first)+len(rest) == 0 {
			return nil, nil, badRequest("globalNetworking requires a data center with global networking (see GET /v2/catalog/datacenters?globalNetwork=true)")
		}
	}
	return first, rest, nil
}

// pickDC chooses the first listed data center with stock, else (reading
// DataCentersPreferred, or no list) the one of the others with most stock.
func pickDC(first, rest []*dataCenter, level func(dc *dataCenter) string) *dataCenter {
	for _, dc := range first {
		if levels[level(dc)] > 0 {
			return dc
		}
	}
	var best *dataCenter
	bestLvl := 0
	for _, dc := range rest {
		if l := levels[level(dc)]; l > bestLvl {
			best, bestLvl = dc, l
		}
	}
	return best
}

func noCapacity(what string, first, rest []*dataCenter) *reply {
	var names []string
	for _, dc := range append(append([]*dataCenter{}, first...), rest...) {
		names = append(names, dc.id)
	}
	where := "any data center"
	if len(names) > 0 {
		where = strings.Join(names, ", ")
	}
	return badRequest("no capacity: %s could not be placed in %s; try another GPU type or data center", what, where)
}

// ---------------------------------------------------------------------------
// SSE logs

type logEvent struct {
	at     time.Time
	source string
	line   string
}

// sseReply renders a finite Server-Sent Events backfill honouring source,
// tail, since and Last-Event-ID.
func sseReply(c *call, events []logEvent) *reply {
	var errs []string
	source := c.query.Get("source")
	if _, ok := c.query["source"]; ok && source != "container" && source != "system" {
		errs = append(errs, "query.source: must be one of 'container', 'system'")
	}
	tail := 100
	if _, ok := c.query["tail"]; ok {
		n, err := strconv.Atoi(c.query.Get("tail"))
		switch {
		case err != nil:
			errs = append(errs, "query.tail: expected integer")
		case n < 0:
			errs = append(errs, "query.tail: must be >= 0")
		case n > 5000:
			errs = append(errs, "query.tail: must be <= 5000")
		default:
			tail = n
		}
	}
	var since *time.Time
	if _, ok := c.query["since"]; ok {
		t, err := time.Parse(time.RFC3339, c.query.Get("since"))
		if err != nil {
			errs = append(errs, "query.since: must be an RFC 3339 date-time")
		} else {
			since = &t
		}
	}
	// The document: "Log-event id values are the event ts timestamp". Events
	// of the same second share an id, so a reconnect resumes after that
	// whole second (a consequence of the document's choice of id).
	var lastID *time.Time
	if h := c.r.Header.Get("Last-Event-ID"); h != "" {
		t, err := time.Parse(time.RFC3339, h)
		if err != nil {
			errs = append(errs, "header.Last-Event-ID: must be an RFC 3339 date-time (the ts of an event)")
		} else {
			lastID = &t
		}
	}
	if len(errs) > 0 {
		return invalid(errs...)
	}
	var sel []logEvent
	for _, e := range events {
		if source != "" && e.source != source {
			continue
		}
		switch {
		case lastID != nil:
			if !e.at.Truncate(time.Second).After(*lastID) {
				continue
			}
		case since != nil:
			if e.at.Before(*since) {
				continue
			}
		}
		sel = append(sel, e)
	}
	if lastID == nil && since == nil && len(sel) > tail {
		sel = sel[len(sel)-tail:]
	}
	var b strings.Builder
	for _, e := range sel {
		data, _ := json.Marshal(map[string]string{"ts": ts(e.at), "source": e.source, "line": e.line})
		fmt.Fprintf(&b, "id: %s\ndata: %s\n\n", ts(e.at), data)
	}
	return &reply{
		status: http.StatusOK,
		ctype:  "text/event-stream",
		body:   []byte(b.String()),
		header: http.Header{
			"Cache-Control":     []string{"no-cache"},
			"Connection":        []string{"keep-alive"},
			"X-Accel-Buffering": []string{"no"},
		},
	}
}

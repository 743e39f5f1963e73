package v2sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Options configures a simulator.
type Options struct {
	// Now is the clock every time-driven behaviour reads; nil means time.Now.
	Now func() time.Time
	// Keys are the accepted bearer tokens; empty means any non-empty bearer
	// token is accepted.
	Keys []string
	// ForbiddenKeys are valid tokens that lack access: every call made with
	// one is answered 403 (after authentication and rate limiting).
	ForbiddenKeys []string
	// RateLimitPerMinute is the per-key quota of a fixed minute window on the
	// injected clock; 0 disables rate limiting and its headers.
	RateLimitPerMinute int
	// Seed populates demo data owned by the account (pods, a template, a
	// serverless endpoint, a network volume, a registry credential, SSH keys).
	// The vendor catalogs exist regardless.
	Seed bool

	// The readings of the v2 document where its words are ambiguous or
	// contradict each other (see the package documentation, "Readings").
	// The zero value of each is the default reading.

	// EndpointTemplate: which template is an endpoint's bound template.
	EndpointTemplate EndpointTemplate
	// PodTemplate: whether a pod created from a template shows it.
	PodTemplate PodTemplate
	// DataCenters: whether dataCenterIds are preferences or a filter.
	DataCenters DataCenters
}

// EndpointTemplate is a reading of "an endpoint's bound template".
type EndpointTemplate string

const (
	// EndpointTemplateCopy (the default, also ""): every endpoint is bound to
	// a template of its own, made at create from its resolved container
	// settings. The template named by templateId is only read ("resolved at
	// create time", "Later template edits do not affect the endpoint"): it
	// stays deletable and survives the endpoint's deletion.
	EndpointTemplateCopy EndpointTemplate = "copy"
	// EndpointTemplateCaller: an owned template named by templateId becomes
	// the endpoint's bound template: DELETE /v2/templates/{id} is refused
	// while the endpoint exists, and deleting the endpoint deletes it.
	// Endpoints created from a public template or without one get their own
	// bound template as under EndpointTemplateCopy.
	EndpointTemplateCaller EndpointTemplate = "caller"
)

// PodTemplate is a reading of a pod's link to the template it was created
// from. Under both, what blocks DELETE /v2/templates/{id} is a pod whose
// visible `template` field names the template, and nothing hidden.
type PodTemplate string

const (
	// PodTemplateNull (the default, also ""): CreatePodRequest.templateId's
	// words: "the created pod does not retain a link to the template
	// (`template` stays null)". A pod therefore never blocks a template delete.
	PodTemplateNull PodTemplate = "null"
	// PodTemplateVisible: Pod.template's words, "ID of the template this pod
	// was created from": the pod shows the id and blocks the template's
	// delete while it exists.
	PodTemplateVisible PodTemplate = "visible"
)

// DataCenters is a reading of dataCenterIds ("Preferred data centers for
// placement") of pods and serverless endpoints.
type DataCenters string

const (
	// DataCentersPreferred (the default, also ""): the document's word. The
	// listed data centers are tried first, in order; when none of them can
	// place the resource, the others are tried.
	DataCentersPreferred DataCenters = "preferred"
	// DataCentersStrict: the listed data centers are a hard filter; nothing
	// is placed elsewhere (a pod create fails for capacity, endpoint workers
	// stay THROTTLED).
	DataCentersStrict DataCenters = "strict"
)

// Valid reports whether r is one of the readings (or "", the default).
func (r EndpointTemplate) Valid() bool {
	return r == "" || r == EndpointTemplateCopy || r == EndpointTemplateCaller
}

// Valid reports whether r is one of the readings (or "", the default).
func (r PodTemplate) Valid() bool { return r == "" || r == PodTemplateNull || r == PodTemplateVisible }

// Valid reports whether r is one of the readings (or "", the default).
func (r DataCenters) Valid() bool {
	return r == "" || r == DataCentersPreferred || r == DataCentersStrict
}

// Fault scripts a failure for tests. The next Times requests (0 means 1; -1
// means forever) whose method matches Method ("" = any) and whose URL path
// starts with PathPrefix get Delay added and, if Status != 0, are answered
// with that status and a problem body (Detail, or the standard title) instead
// of being processed. If Status == 0 the request is processed normally after
// the delay. If AfterProcess is true and Status != 0 the request is processed
// (e.g. the pod is created) and then the fault status is answered instead of
// the real answer ("upstream did it but the reply was lost").
type Fault struct {
	Method       string
	PathPrefix   string
	Status       int
	Detail       string
	Delay        time.Duration
	Times        int
	AfterProcess bool
}

// Call is one request received (after authentication), as logged for tests.
// Status is the status answered; 0 when the client went away during a fault
// delay and nothing was answered.
type Call struct {
	Method   string
	Path     string
	RawQuery string
	Body     []byte
	Status   int
}

// Timing of the simulated life cycles.
const (
	provisionDuration = 5 * time.Second  // PROVISIONING after create/start
	startDuration     = 10 * time.Second // then STARTING before RUNNING
	maxBodyBytes      = 4 << 20
)

// Server is the simulator; it implements http.Handler and is safe for
// concurrent use.
type Server struct {
	now       func() time.Time
	keys      map[string]bool
	forbidden map[string]bool
	rateLimit int
	routes    []route

	callerBound bool // Options.EndpointTemplate == EndpointTemplateCaller
	podTplShown bool // Options.PodTemplate == PodTemplateVisible
	strictDCs   bool // Options.DataCenters == DataCentersStrict

	mu      sync.Mutex
	rng     uint64
	st      *state
	faults  []*Fault
	calls   []Call
	callGen int
	windows map[string]*rlWindow
}

type rlWindow struct {
	start time.Time
	count int
}

// New builds a simulator. It panics on a reading that is not one of the
// declared constants (a programming error; check Valid first for user input).
func New(opts Options) *Server {
	if !opts.EndpointTemplate.Valid() || !opts.PodTemplate.Valid() || !opts.DataCenters.Valid() {
		panic(fmt.Sprintf("v2sim: unknown reading (EndpointTemplate %q, PodTemplate %q, DataCenters %q)",
			opts.EndpointTemplate, opts.PodTemplate, opts.DataCenters))
	}
	s := &Server{
		now:       opts.Now,
		keys:      map[string]bool{},
		forbidden: map[string]bool{},
		rateLimit: opts.RateLimitPerMinute,
		rng:       0x5eed_0f_76_32_51_4d, // fixed seed: identifiers are reproducible
		windows:   map[string]*rlWindow{},

		callerBound: opts.EndpointTemplate == EndpointTemplateCaller,
		podTplShown: opts.PodTemplate == PodTemplateVisible,
		strictDCs:   opts.DataCenters == DataCentersStrict,
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.rateLimit < 0 {
		s.rateLimit = 0
	}
	for _, k := range opts.Keys {
		if k != "" {
			s.keys[k] = true
		}
	}
	for _, k := range opts.ForbiddenKeys {
		if k != "" {
			s.forbidden[k] = true
		}
	}
	s.st = newState()
	s.routes = buildRoutes()
	if opts.Seed {
		s.seed(s.now())
	}
	return s
}

// AddFault scripts a fault (see Fault).
func (s *Server) AddFault(f Fault) {
	if f.Times == 0 {
		f.Times = 1
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &f)
}

// ClearFaults removes every scripted fault.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

// Calls returns a copy of the request log, in arrival order.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Call, len(s.calls))
	for i, c := range s.calls {
		c.Body = append([]byte(nil), c.Body...)
		out[i] = c
	}
	return out
}

// ResetCalls empties the request log.
func (s *Server) ResetCalls() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = nil
	s.callGen++
}

// SetPodError puts a pod into the ERROR status (a test hook: nothing in the
// simulated service fails on its own). It reports whether the pod exists.
func (s *Server) SetPodError(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	p := s.st.pods[id]
	if p == nil || !p.visible(now) {
		return false
	}
	s.podHalt(p, now)
	p.errored = true
	return true
}

// ---------------------------------------------------------------------------
// request handling

// reply is a fully computed answer; handlers build one under the lock and the
// server writes it afterwards.
type reply struct {
	status int
	ctype  string
	body   []byte
	header http.Header
}

// call is what a handler sees of the request.
type call struct {
	r      *http.Request
	method string
	path   string
	params map[string]string
	query  url.Values
	body   []byte
	now    time.Time
}

func (c *call) param(name string) string { return c.params[name] }

type handlerFunc func(s *Server, c *call) *reply

type route struct {
	method string
	segs   []string
	h      handlerFunc
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			writeReply(w, problem(http.StatusInternalServerError, fmt.Sprintf("internal simulator error: %v", v)))
		}
	}()

	token, ok := bearerToken(r.Header.Get("Authorization"))
	if !ok {
		writeReply(w, problem(http.StatusUnauthorized, "missing bearer token"))
		return
	}
	if len(s.keys) > 0 && !s.keys[token] && !s.forbidden[token] {
		writeReply(w, problem(http.StatusUnauthorized, "invalid bearer token"))
		return
	}

	body, tooLarge := readBody(r)

	// Log the call, count it against the key's window.
	s.mu.Lock()
	now := s.now()
	s.calls = append(s.calls, Call{Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery, Body: body})
	idx, gen := len(s.calls)-1, s.callGen
	rlHeader, limited := s.rateLimitLocked(token, now)
	s.mu.Unlock()

	finish := func(rep *reply) {
		if rep != nil {
			// Date from the simulator's own clock, as a real server's Date
			// and createdAt come from one clock (clients read v2's time
			// from it).
			w.Header().Set("Date", s.now().UTC().Format(http.TimeFormat))
			for k, v := range rlHeader {
				if rep.header == nil {
					rep.header = http.Header{}
				}
				rep.header[k] = v
			}
			writeReply(w, rep)
		}
		s.mu.Lock()
		if gen == s.callGen && idx < len(s.calls) {
			if rep != nil {
				s.calls[idx].Status = rep.status
			}
		}
		s.mu.Unlock()
	}

	if limited != nil {
		finish(limited)
		return
	}
	if s.forbidden[token] {
		finish(problem(http.StatusForbidden, "access denied"))
		return
	}

	s.mu.Lock()
	f := s.takeFaultLocked(r.Method, r.URL.Path)
	s.mu.Unlock()
	if f != nil && f.Delay > 0 {
		t := time.NewTimer(f.Delay)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			finish(nil)
			return
		}
	}
	if f != nil && f.Status != 0 && !f.AfterProcess {
		finish(faultReply(f))
		return
	}

	var rep *reply
	if tooLarge {
		rep = problem(http.StatusRequestEntityTooLarge, fmt.Sprintf("request body exceeds %d bytes", maxBodyBytes))
	} else {
		rep = s.dispatch(r, body)
	}
	if f != nil && f.Status != 0 && f.AfterProcess {
		rep = faultReply(f)
	}
	finish(rep)
}

func faultReply(f *Fault) *reply {
	detail := f.Detail
	if detail == "" {
		detail = http.StatusText(f.Status)
		if detail == "" {
			detail = "injected fault"
		}
	}
	rep := problem(f.Status, detail)
	if f.Status == http.StatusTooManyRequests || f.Status == http.StatusServiceUnavailable {
		rep.header = http.Header{"Retry-After": []string{"1"}}
	}
	return rep
}

func bearerToken(h string) (string, bool) {
	const prefix = "bearer "
	if len(h) < len(prefix) || !strings.EqualFold(h[:len(prefix)], prefix) {
		return "", false
	}
	tok := strings.TrimSpace(h[len(prefix):])
	return tok, tok != ""
}

func readBody(r *http.Request) ([]byte, bool) {
	if r.Body == nil {
		return nil, false
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes+1))
	if err != nil {
		return b, false
	}
	if len(b) > maxBodyBytes {
		return b[:maxBodyBytes], true
	}
	return b, false
}

// rateLimitLocked counts the request and returns the headers to send and, when
// the quota is exhausted, the 429 answer.
func (s *Server) rateLimitLocked(key string, now time.Time) (http.Header, *reply) {
	if s.rateLimit <= 0 {
		return nil, nil
	}
	start := now.Truncate(time.Minute)
	win := s.windows[key]
	if win == nil || !win.start.Equal(start) {
		win = &rlWindow{start: start}
		s.windows[key] = win
	}
	reset := int((start.Add(time.Minute).Sub(now) + time.Second - 1) / time.Second)
	if reset < 1 {
		reset = 1
	}
	h := http.Header{}
	h.Set("RateLimit-Policy", fmt.Sprintf(`"minute";q=%d;w=60`, s.rateLimit))
	if win.count >= s.rateLimit {
		h.Set("RateLimit", fmt.Sprintf(`"minute";r=0;t=%d`, reset))
		rep := problem(http.StatusTooManyRequests, "rate limit exceeded for the minute window")
		rep.header = http.Header{"Retry-After": []string{strconv.Itoa(reset)}}
		return h, rep
	}
	win.count++
	h.Set("RateLimit", fmt.Sprintf(`"minute";r=%d;t=%d`, s.rateLimit-win.count, reset))
	return h, nil
}

func (s *Server) takeFaultLocked(method, path string) *Fault {
	for i, f := range s.faults {
		if f.Method != "" && !strings.EqualFold(f.Method, method) {
			continue
		}
		if !strings.HasPrefix(path, f.PathPrefix) {
			continue
		}
		cp := *f
		if f.Times > 0 {
			f.Times--
			if f.Times == 0 {
				s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
			}
		}
		return &cp
	}
	return nil
}

// dispatch routes the request and runs its handler under the lock.
func (s *Server) dispatch(r *http.Request, body []byte) *reply {
	segs, ok := splitPath(r.URL)
	if !ok {
		return problem(http.StatusNotFound, "no such route: "+r.URL.Path)
	}
	var best *route
	var bestParams map[string]string
	bestScore := -1
	var allow []string
	for i := range s.routes {
		rt := &s.routes[i]
		params, score, ok := rt.match(segs)
		if !ok {
			continue
		}
		if rt.method != r.Method {
			allow = append(allow, rt.method)
			continue
		}
		if score > bestScore {
			best, bestParams, bestScore = rt, params, score
		}
	}
	if best == nil {
		if len(allow) == 0 {
			return problem(http.StatusNotFound, fmt.Sprintf("no such route: %s %s", r.Method, r.URL.Path))
		}
		allow = uniqueSorted(allow)
		rep := problem(http.StatusMethodNotAllowed, "The requested method is not allowed for this path.")
		rep.header = http.Header{"Allow": []string{strings.Join(allow, ", ")}}
		return rep
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := &call{r: r, method: r.Method, path: r.URL.Path, params: bestParams, query: r.URL.Query(), body: body, now: s.now()}
	if rep := checkContentType(r, body); rep != nil {
		return rep
	}
	return best.h(s, c)
}

func checkContentType(r *http.Request, body []byte) *reply {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || !(mt == "application/json" || strings.HasSuffix(mt, "+json")) {
		return problem(http.StatusUnsupportedMediaType, fmt.Sprintf("unsupported Content-Type %q: send application/json", ct))
	}
	return nil
}

func splitPath(u *url.URL) ([]string, bool) {
	p := u.EscapedPath()
	if !strings.HasPrefix(p, "/") {
		return nil, false
	}
	raw := strings.Split(p[1:], "/")
	out := make([]string, len(raw))
	for i, seg := range raw {
		v, err := url.PathUnescape(seg)
		if err != nil {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

func (rt *route) match(segs []string) (map[string]string, int, bool) {
	if len(segs) != len(rt.segs) {
		return nil, 0, false
	}
	var params map[string]string
	score := 0
	for i, want := range rt.segs {
		if strings.HasPrefix(want, "{") {
			if segs[i] == "" {
				return nil, 0, false
			}
			if params == nil {
				params = map[string]string{}
			}
			params[want[1:len(want)-1]] = segs[i]
			continue
		}
		if segs[i] != want {
			return nil, 0, false
		}
		score++
	}
	return params, score, true
}

func uniqueSorted(in []string) []string {
	sort.Strings(in)
	out := in[:0]
	for i, v := range in {
		if i == 0 || v != in[i-1] {
			out = append(out, v)
		}
	}
	return out
}

func buildRoutes() []route {
	table := []struct {
		method, pattern string
		h               handlerFunc
	}{
		{"GET", "/v2/account/ssh-keys", (*Server).getSSHKeys},
		{"PUT", "/v2/account/ssh-keys", (*Server).putSSHKeys},

		{"GET", "/v2/pods", (*Server).listPods},
		{"POST", "/v2/pods", (*Server).createPod},
		{"GET", "/v2/pods/{id}", (*Server).getPod},
		{"PATCH", "/v2/pods/{id}", (*Server).updatePod},
		{"DELETE", "/v2/pods/{id}", (*Server).deletePod},
		{"GET", "/v2/pods/{id}/logs", (*Server).podLogs},
		{"POST", "/v2/pods/{id}/action", (*Server).podAction},

		{"GET", "/v2/clusters", (*Server).listClusters},
		{"POST", "/v2/clusters", (*Server).createCluster},
		{"GET", "/v2/clusters/{id}", (*Server).getCluster},
		{"PATCH", "/v2/clusters/{id}", (*Server).updateCluster},
		{"DELETE", "/v2/clusters/{id}", (*Server).deleteCluster},
		{"GET", "/v2/clusters/{id}/pods", (*Server).listClusterPods},

		{"GET", "/v2/serverless", (*Server).listEndpoints},
		{"POST", "/v2/serverless", (*Server).createEndpoint},
		{"GET", "/v2/serverless/{id}", (*Server).getEndpoint},
		{"PATCH", "/v2/serverless/{id}", (*Server).updateEndpoint},
		{"DELETE", "/v2/serverless/{id}", (*Server).deleteEndpoint},
		{"GET", "/v2/serverless/{id}/workers", (*Server).listWorkers},
		{"GET", "/v2/serverless/{id}/releases", (*Server).listReleases},
		{"GET", "/v2/serverless/{id}/workers/{workerId}/logs", (*Server).workerLogs},

		{"GET", "/v2/templates", (*Server).listTemplates},
		{"POST", "/v2/templates", (*Server).createTemplate},
		{"GET", "/v2/templates/{id}", (*Server).getTemplate},
		{"PATCH", "/v2/templates/{id}", (*Server).updateTemplate},
		{"DELETE", "/v2/templates/{id}", (*Server).deleteTemplate},

		{"GET", "/v2/network-volumes", (*Server).listVolumes},
		{"POST", "/v2/network-volumes", (*Server).createVolume},
		{"GET", "/v2/network-volumes/{id}", (*Server).getVolume},
		{"PATCH", "/v2/network-volumes/{id}", (*Server).updateVolume},
		{"DELETE", "/v2/network-volumes/{id}", (*Server).deleteVolume},

		{"GET", "/v2/registries", (*Server).listRegistries},
		{"POST", "/v2/registries", (*Server).createRegistry},
		{"GET", "/v2/registries/{id}", (*Server).getRegistry},
		{"DELETE", "/v2/registries/{id}", (*Server).deleteRegistry},
		{"GET", "/v2/registries/delegations", (*Server).listDelegations},
		{"POST", "/v2/registries/delegations", (*Server).createDelegation},
		{"DELETE", "/v2/registries/delegations/{id}", (*Server).revokeDelegation},

		{"GET", "/v2/catalog/gpus", (*Server).listGPUTypes},
		{"GET", "/v2/catalog/gpus/{id}", (*Server).getGPUType},
		{"GET", "/v2/catalog/cpus", (*Server).listCPUTypes},
		{"GET", "/v2/catalog/cpus/{id}", (*Server).getCPUType},
		{"GET", "/v2/catalog/datacenters", (*Server).listDataCenters},
		{"GET", "/v2/catalog/datacenters/{id}", (*Server).getDataCenter},
		{"GET", "/v2/catalog/templates", (*Server).listPublicTemplates},

		{"GET", "/v2/billing", (*Server).billingAll},
		{"GET", "/v2/billing/pods", (*Server).billingPods},
		{"GET", "/v2/billing/serverless", (*Server).billingServerless},
		{"GET", "/v2/billing/endpoints", (*Server).billingEndpoints},
		{"GET", "/v2/billing/network-volumes", (*Server).billingVolumes},
		{"GET", "/v2/billing/clusters", (*Server).billingClusters},
	}
	routes := make([]route, len(table))
	for i, t := range table {
		routes[i] = route{method: t.method, segs: strings.Split(t.pattern[1:], "/"), h: t.h}
	}
	return routes
}

// ---------------------------------------------------------------------------
// answers

type problemBody struct {
	Title  string   `json:"title"`
	Status int      `json:"status"`
	Detail string   `json:"detail"`
	Errors []string `json:"errors,omitempty"`
}

func problem(status int, detail string, errs ...string) *reply {
	title := http.StatusText(status)
	if title == "" {
		title = "Error"
	}
	b, _ := marshal(problemBody{Title: title, Status: status, Detail: detail, Errors: errs})
	return &reply{status: status, ctype: "application/problem+json", body: b}
}

func notFound(kind, id string) *reply {
	return problem(http.StatusNotFound, fmt.Sprintf("%s %q not found", kind, id))
}

func badRequest(format string, args ...any) *reply {
	return problem(http.StatusBadRequest, fmt.Sprintf(format, args...))
}

func conflict(format string, args ...any) *reply {
	return problem(http.StatusConflict, fmt.Sprintf(format, args...))
}

func invalid(errs ...string) *reply {
	return problem(http.StatusUnprocessableEntity, "Request validation failed.", errs...)
}

func jsonReply(status int, v any) *reply {
	b, err := marshal(v)
	if err != nil {
		return problem(http.StatusInternalServerError, "encoding the answer: "+err.Error())
	}
	return &reply{status: status, ctype: "application/json", body: b}
}

func noContent() *reply { return &reply{status: http.StatusNoContent} }

func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

func writeReply(w http.ResponseWriter, rep *reply) {
	h := w.Header()
	for k, v := range rep.header {
		h[k] = v
	}
	if rep.ctype != "" && rep.status != http.StatusNoContent {
		h.Set("Content-Type", rep.ctype)
	}
	if rep.status != http.StatusNoContent {
		h.Set("Content-Length", strconv.Itoa(len(rep.body)))
	}
	w.WriteHeader(rep.status)
	if rep.status != http.StatusNoContent && len(rep.body) > 0 {
		_, _ = w.Write(rep.body)
	}
}

// ---------------------------------------------------------------------------
// identifiers and small helpers

const idAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789"

// nextRand is splitmix64 over the server's seed: deterministic, lock held.
func (s *Server) nextRand() uint64 {
	s.rng += 0x9e3779b97f4a7c15
	z := s.rng
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// newID returns an unprefixed random-looking id of n lowercase alphanumerics
// that no resource uses yet.
func (s *Server) newID(n int) string {
	for {
		b := make([]byte, n)
		for i := range b {
			b[i] = idAlphabet[s.nextRand()%uint64(len(idAlphabet))]
		}
		// Start with a letter, like the vendor's ids.
		b[0] = idAlphabet[s.nextRand()%26]
		id := string(b)
		if !s.st.idTaken(id) {
			s.st.ids[id] = true
			return id
		}
	}
}

func ts(t time.Time) string { return t.UTC().Truncate(time.Second).Format(time.RFC3339) }

func tsPtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	v := ts(*t)
	return &v
}

func strPtr(s string) *string { return &s }

func round(v float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	x := v * p
	if math.IsInf(x, 0) || math.IsNaN(x) || math.Abs(x) > 1e15 {
		return v
	}
	return math.Round(x) / p
}

var errNotBool = errors.New("not a boolean")

func parseBoolParam(v string) (bool, error) {
	switch strings.ToLower(v) {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, errNotBool
}

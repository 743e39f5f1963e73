package translate

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// ---------------------------------------------------------------------------
// The hand-written pod decoder and v1 encoder (podjson.go, jsonscan.go,
// podencode.go) against encoding/json: same v1 answer for every generated
// v2 pod.

// referenceV1 is the slow path: encoding/json decode, R-Pod, json.Marshal.
func referenceV1(t testing.TB, body []byte) []byte {
	var list v2PodList
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatalf("encoding/json rejects %s: %v", body, err)
	}
	out := make([]v1Pod, len(list.Pods))
	for i := range list.Pods {
		out[i] = v1PodFrom(&list.Pods[i])
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fastV1 is the gateway's path.
func fastV1(t testing.TB, body []byte) []byte {
	enc, err := v1ListOf(body)
	if err != nil {
		t.Fatalf("decodePodList rejects %s: %v", body, err)
	}
	return enc
}

// v1ListOf is the v1 list of the pods decodePodList reads from body, or
// its error.
func v1ListOf(body []byte) ([]byte, error) {
	pods, err := decodePodList(body)
	if err != nil {
		return nil, err
	}
	out := make([]v1Pod, len(pods))
	for i := range pods {
		fillV1Pod(&out[i], &pods[i])
	}
	return appendV1Pods(nil, out), nil
}

var nastyStrings = []string{
	"", "plain", `quote " inside`, `back\slash`, "tab\tnew\nline\rcr", "\x00\x01\x1f ctl", "é ü 日本 🚀",
	"\u2028\u2029", "<html>&amp;", "bad utf8 \xff\xfe", "/slashes/", `\u0041 literal`, strings.Repeat("long ", 40),
}

func randString(r *rand.Rand) string { return nastyStrings[r.IntN(len(nastyStrings))] }

// randomV2Pod builds a valid-shaped v2 pod with random content.
func randomV2Pod(r *rand.Rand, i int) map[string]any {
	m := v2PodFixture("x")
	m["id"] = fmt.Sprintf("p%d-%s", i, randString(r))
	m["name"] = randString(r)
	m["image"] = randString(r)
	m["status"] = []string{"PROVISIONING", "STARTING", "RUNNING", "EXITED", "ERROR", "TERMINATED", "FUTURE"}[r.IntN(7)]
	m["args"] = []string{"", "python app.py", `sh -c "echo hi"`, "a  b\tc", `unterminated 'quote`, `x\ y`, randString(r)}[r.IntN(7)]
	m["disk"] = r.IntN(1000)
	m["cost"] = []float64{0, 0.74, 1e-7, 123456.5, 1e22, 0.1 + 0.2}[r.IntN(6)]
	m["locked"] = r.IntN(2) == 0
	nullable := func(k string, v any) {
		if r.IntN(3) == 0 {
			m[k] = nil
		} else {
			m[k] = v
		}
	}
	nullable("registry", randString(r))
	nullable("dataCenterId", randString(r))
	nullable("template", randString(r))
	nullable("startedAt", randString(r))
	m["createdAt"] = []string{"", "2026-03-13T20:00:00Z", randString(r)}[r.IntN(3)]
	m["cloud"] = []string{"SECURE", "COMMUNITY", "", randString(r)}[r.IntN(4)]
	env := map[string]any{}
	for j := r.IntN(4); j > 0; j-- {
		env[randString(r)] = randString(r)
	}
	m["env"] = env
	ports := []any{}
	for j := r.IntN(3); j > 0; j-- {
		ports = append(ports, randString(r))
	}
	m["ports"] = ports
	switch r.IntN(3) {
	case 0:
		m["mounts"] = map[string]any{}
	case 1:
		m["mounts"] = map[string]any{"persistent": map[string]any{"size": r.IntN(500), "path": randString(r)}}
	default:
		m["mounts"] = map[string]any{"network": []any{map[string]any{"volumeId": randString(r), "path": randString(r)}}}
	}
	if r.IntN(3) == 0 {
		delete(m, "gpu")
		m["cpu"] = map[string]any{"id": randString(r), "vcpuCount": r.IntN(64), "memory": r.IntN(256)}
	} else {
		m["gpu"] = map[string]any{"id": randString(r), "count": r.IntN(8)}
	}
	if r.IntN(3) == 0 {
		m["runtime"] = nil
	} else {
		var rp []any
		for j := r.IntN(5); j > 0; j-- {
			p := map[string]any{"private": []int{22, 8888, 22, 80}[r.IntN(4)], "type": "tcp"}
			if r.IntN(3) > 0 {
				p["public"] = 10000 + r.IntN(1000)
			} else {
				p["public"] = nil
			}
			p["ip"] = []any{nil, "100.65.0.119", "2001:db8::1", "not an ip", ""}[r.IntN(5)]
			rp = append(rp, p)
		}
		m["runtime"] = map[string]any{"uptime": 5, "ports": rp, "gpus": []any{map[string]any{"id": "x"}}}
	}
	m["unknownFutureField"] = map[string]any{"nested": []any{1, "two", nil, true}}
	return m
}

func TestPodJSONMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 300; round++ {
		var pods []any
		for i := r.IntN(4); i >= 0; i-- {
			pods = append(pods, randomV2Pod(r, i))
		}
		body, err := json.Marshal(map[string]any{"pods": pods, "extra": "ignored"})
		if err != nil {
			t.Fatal(err)
		}
		if round%2 == 1 {
			// Whitespace and escapes the way other encoders write them.
			body = []byte(strings.ReplaceAll(strings.ReplaceAll(string(body), ",", " ,\n\t"), `:`, ` : `))
			body = []byte(strings.ReplaceAll(string(body), `"id"`, `"\u0069d"`))
		}
		fast, ref := fastV1(t, body), referenceV1(t, body)
		if !json.Valid(fast) {
			t.Fatalf("fast answer is not JSON: %s", fast)
		}
		var a, b any
		_ = json.Unmarshal(fast, &a)
		_ = json.Unmarshal(ref, &b)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("round %d: answers differ for %s\nfast %s\n ref %s", round, body, fast, ref)
		}
	}
}

func TestPodJSONRejectsMalformed(t *testing.T) {
	for _, b := range []string{
		``, `{`, `[]`, `{"pods":{}}`, `{"pods":[{]}`, `{"pods":[1]}`, `{"pods":[{"disk":"50"}]}`, `{"pods":[{"disk":5.5}]}`,
		`{"pods":[{"name":"a` + "\x01" + `"}]}`, `{"pods":[{"name":"\x"}]}`, `{"pods":[{"name":"\u12"}]}`, `{"pods":[]} x`,
		`{"pods":[{"env":{"a":}}]}`, `{"pods":[{"ports":[1,]}]}`, `{"other":1}`, `{"pods":[{"cost":-}]}`, `{"pods":[{"locked":tru}]}`,
		`{"pods":[{"x":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}]}`,
	} {
		if _, err := decodePodList([]byte(b)); err == nil {
			t.Errorf("decodePodList(%q) succeeded", b)
		}
	}
}

func TestAppendJSONString(t *testing.T) {
	for _, s := range append(nastyStrings, "a\"b\\c\x7f\u00ff\U0001F600", "12345678\"12345678", "1234567\x00",
		// The fast path's edges: plain lengths around the 8-byte word, a
		// special byte in the overlapping last word only, or in the first.
		"", "a", "1234567", "12345678", "123456789", "123456789012345", "1234567890123456", "12345678901234567",
		"123456789\"", "12345678901234\n", "\"23456789", "1234567\u00e9", "123456789\u2028", "123456789\xff") {
		checkAppendJSONString(t, s)
	}
}

// checkAppendJSONString: appendJSONString(s) is valid JSON that decodes as
// encoding/json's encoding of s does.
func checkAppendJSONString(t *testing.T, s string) {
	t.Helper()
	b := appendJSONString([]byte("x"), s)[1:]
	var got string
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%q → invalid %s", s, b)
	}
	want, _ := json.Marshal(s)
	var w string
	_ = json.Unmarshal(want, &w)
	if got != w {
		t.Errorf("%q → %q, want %q", s, got, w)
	}
	// Byte for byte the general loop (appendJSONStringFrom), which the
	// fast paths bypass, whatever room b has after its contents.
	want = appendJSONStringFrom([]byte{'x', '"'}, s, 0)
	for _, spare := range []int{0, 1, len(s) + 1, len(s) + 2, len(s) + 64} {
		b := append(make([]byte, 0, 1+spare), 'x')
		if got := appendJSONString(b, s); string(got) != string(want) {
			t.Fatalf("%q with %d spare bytes → %q, want %q", s, spare, got, want)
		}
	}
}

func FuzzAppendJSONString(f *testing.F) {
	for _, s := range append(nastyStrings, "12345678\"12345678", "123456789\u2028") {
		f.Add(s)
	}
	f.Fuzz(checkAppendJSONString)
}

func FuzzPodListDecode(f *testing.F) {
	f.Add(hundredPods()[:2000])
	f.Add([]byte(podList(pod("a"), pod("b", cpuPod))))
	f.Add([]byte(`{"pods":[{"id":"\ud83d\ude00","runtime":{"ports":[{"private":1,"public":null}]}}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if enc, err := v1ListOf(b); err == nil && !json.Valid(enc) {
			t.Fatalf("invalid v1 JSON %q from %q", enc, b)
		}
	})
}

// ---------------------------------------------------------------------------
// Fuzzing the v1 bodies: never a panic, never a 5xx; either a 4xx v1 error
// or v2 bodies that validate against the v2 contract and a v1 answer that
// validates against the v1 contract.

// routedCaller answers by route, so that any plan can run against it.
type routedCaller struct {
	t     testing.TB
	mu    sync.Mutex
	calls []V2Call
	pod   string // the pod GET/PATCH/create answer with
}

func (c *routedCaller) Call(_ context.Context, call V2Call) (*V2Answer, error) {
	c.mu.Lock()
	c.calls = append(c.calls, call)
	c.mu.Unlock()
	target := call.Path
	if len(call.Query) > 0 {
		target += "?" + call.Query.Encode()
	}
	if _, v2 := loadSpecs(c.t); v2 != nil {
		if err := v2.ValidateRequest(call.Method, target, jsonHeader, call.Body); err != nil {
			c.t.Fatalf("%s %s breaks the v2 contract: %v\nbody: %s", call.Method, target, err, call.Body)
		}
	}
	ok := func(status int, body string) (*V2Answer, error) {
		return &V2Answer{Status: status, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(body)}, nil
	}
	switch {
	case call.Path == "/v2/pods" && call.Method == "GET":
		return ok(200, `{"pods":[]}`)
	case call.Path == "/v2/pods" && call.Method == "POST":
		return ok(201, c.pod)
	case strings.HasPrefix(call.Path, "/v2/network-volumes/"):
		return ok(200, `{"id":"vol1","name":"data","size":100,"dataCenter":"EU-RO-1","type":"STANDARD"}`)
	case strings.HasPrefix(call.Path, "/v2/templates/"):
		return ok(200, `{"id":"tpl1","name":"t","image":"img:t","args":"","disk":30,"mounts":{"persistent":{"size":40,"path":"/data"}},"ports":[],"env":{},"registry":null,"serverless":false,"public":false,"category":"NVIDIA","startSsh":true,"startJupyter":false,"allowedCudaVersions":[]}`)
	case call.Path == "/v2/catalog/gpus":
		return ok(200, gpuCatalog)
	case call.Path == "/v2/catalog/cpus":
		return ok(200, `{"cpus":[]}`)
	case strings.HasPrefix(call.Path, "/v2/pods/"):
		return ok(200, c.pod)
	}
	c.t.Fatalf("unexpected call %s %s", call.Method, target)
	return nil, nil
}

func checkFuzzResult(t *testing.T, op *Operation, res *Result, body []byte) {
	t.Helper()
	switch {
	case res.Status >= 500:
		t.Fatalf("%d for %q: %s", res.Status, body, res.Body)
	case res.Status >= 400:
		var e V1Error
		if err := json.Unmarshal(res.Body, &e); err != nil || e.Message == "" {
			t.Fatalf("%d without a v1 message for %q: %s", res.Status, body, res.Body)
		}
	default:
		v1, _ := loadSpecs(t)
		if v1 == nil {
			return
		}
		path := "/v1" + strings.ReplaceAll(op.Path, "{podId}", "p1")
		if err := v1.ValidateResponse(op.Method, path, res.Status, http.Header{"Content-Type": {"application/json"}}, res.Body); err != nil {
			t.Fatalf("answer to %q breaks the v1 contract: %v\n%s", body, err, res.Body)
		}
	}
}

var fuzzCreateSeeds = []string{
	`{"imageName":"img","gpuTypeIds":["NVIDIA A40"]}`,
	`{"name":"trainer","imageName":"img:1","gpuTypeIds":["NVIDIA L4","NVIDIA A40"],"gpuCount":2,"allowedCudaVersions":["12.8"],"cloudType":"COMMUNITY","dataCenterIds":["EU-RO-1"],"containerDiskInGb":80,"containerRegistryAuthId":"reg1","dockerStartCmd":["python","-c","print('x')"],"env":{"K":"v"},"ports":["80/http"],"volumeInGb":100,"volumeMountPath":"/data","globalNetworking":true,"locked":true}`,
	`{"computeType":"CPU","imageName":"img","cpuFlavorIds":["cpu5c","cpu3c"],"vcpuCount":8,"networkVolumeId":"vol1"}`,
	`{"templateId":"tpl1","gpuTypeIds":["NVIDIA A40"],"volumeInGb":60}`,
	`{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"countryCodes":["FR"],"ports":"8888/http,22/tcp"}`,
	`{"imageName":"img","gpuTypeIds":["NVIDIA A40"],"dockerEntrypoint":["sh"],"interruptible":true,"minUploadMbps":1}`,
	`{"imageName":"","gpuTypeIds":[],"volumeInGb":5,"name":""}`,
	`{"env":{"a":1},"ports":[1],"locked":"x"}`, `[]`, `{`, `null`, `"x"`, ``,
}

func FuzzPodCreateBody(f *testing.F) {
	for _, s := range fuzzCreateSeeds {
		f.Add([]byte(s), false)
	}
	op := mustOp(f, "CreatePod")
	created := newPod("p1")
	f.Fuzz(func(t *testing.T, body []byte, lenient bool) {
		c := &routedCaller{t: t, pod: created}
		res := op.Plan(context.Background(), &Request{Op: op, Body: body, Options: Options{Lenient: lenient}}, c)
		checkFuzzResult(t, op, res, body)
		creates := 0
		for _, call := range c.calls {
			if call.Method == "POST" {
				creates++
			}
		}
		if res.Status < 300 && creates != 1 {
			t.Fatalf("%d creates for a %d", creates, res.Status)
		}
	})
}

func FuzzPodUpdateBody(f *testing.F) {
	for _, s := range []string{
		`{"name":"renamed"}`, `{"volumeInGb":50,"volumeMountPath":"/d"}`, `{"volumeInGb":10}`, `{}`, `{"dockerStartCmd":[],"env":{},"ports":[],"containerRegistryAuthId":""}`,
		`{"name":"n","imageName":"i","containerDiskInGb":60,"dockerStartCmd":["a","b c"],"env":{"K":"V"},"globalNetworking":true,"locked":false}`,
		`{"dockerEntrypoint":["x"]}`, `{"volumeInGb":0}`, `[1]`, `{"name":`, ``,
	} {
		f.Add([]byte(s), false, false)
	}
	op := mustOp(f, "UpdatePod")
	persistent, network := pod("p1"), pod("p1", set("mounts", `{"network":[{"volumeId":"vol1","path":"/workspace"}]}`))
	f.Fuzz(func(t *testing.T, body []byte, lenient, net bool) {
		c := &routedCaller{t: t, pod: persistent}
		if net {
			c.pod = network
		}
		res := op.Plan(context.Background(), &Request{Op: op, Params: map[string]string{"podId": "p1"}, Body: body, Options: Options{Lenient: lenient}}, c)
		checkFuzzResult(t, op, res, body)
	})
}

// FuzzPodJSONEquivalence drives the generator of TestPodJSONMatchesEncodingJSON
// with fuzzed seeds.
func FuzzPodJSONEquivalence(f *testing.F) {
	f.Add(uint64(1), uint64(2), false)
	f.Fuzz(func(t *testing.T, s1, s2 uint64, spaced bool) {
		r := rand.New(rand.NewPCG(s1, s2))
		var pods []any
		for i := r.IntN(3); i >= 0; i-- {
			pods = append(pods, randomV2Pod(r, i))
		}
		body, err := json.Marshal(map[string]any{"pods": pods})
		if err != nil {
			t.Fatal(err)
		}
		if spaced {
			body = []byte(strings.ReplaceAll(string(body), ",", " ,\n "))
		}
		var a, b any
		_ = json.Unmarshal(fastV1(t, body), &a)
		_ = json.Unmarshal(referenceV1(t, body), &b)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("answers differ for %s", body)
		}
	})
}

// FuzzPodKeyOrder: pods are recognised by the order of the previous pod's
// keys (fieldKey); whatever the order of each pod's keys — shuffled from
// pod to pod, with unknown keys and repeated scalar keys in between, compact
// or spaced — the answer is encoding/json's, and the streaming path's is
// the same.
func FuzzPodKeyOrder(f *testing.F) {
	f.Add(uint64(1), uint64(2), uint8(3), false)
	f.Add(uint64(7), uint64(9), uint8(1), true)
	f.Add(uint64(42), uint64(0), uint8(4), false)
	f.Fuzz(func(t *testing.T, s1, s2 uint64, n uint8, spaced bool) {
		r := rand.New(rand.NewPCG(s1, s2))
		var pods []string
		for i := range int(n%5) + 1 {
			m := randomV2Pod(r, i)
			keys := make([]string, 0, len(m)+2)
			for k := range m {
				keys = append(keys, k)
			}
			slices.Sort(keys) // map order is random: start from a known one
			if r.IntN(2) == 0 {
				r.Shuffle(len(keys), func(a, b int) { keys[a], keys[b] = keys[b], keys[a] })
			}
			var b strings.Builder
			b.WriteByte('{')
			sep := ","
			if spaced {
				sep = " ,\n "
			}
			for j, k := range keys {
				if j > 0 {
					b.WriteString(sep)
				}
				if r.IntN(8) == 0 {
					b.WriteString(`"unknownKey":{"a":[1,"x"]}` + sep)
				}
				v := shuffledJSON(t, r, m[k])
				if _, isObj := m[k].(map[string]any); !isObj && r.IntN(10) == 0 {
					// A repeated scalar key: the last one wins.
					fmt.Fprintf(&b, "%s:%s%s", jsonString(k), v, sep)
				}
				fmt.Fprintf(&b, "%s:%s", jsonString(k), v)
			}
			b.WriteByte('}')
			pods = append(pods, b.String())
		}
		body := []byte(podList(pods...))
		var a, want any
		_ = json.Unmarshal(fastV1(t, body), &a)
		_ = json.Unmarshal(referenceV1(t, body), &want)
		if !reflect.DeepEqual(a, want) {
			t.Fatalf("answers differ for %s", body)
		}
		sameListAnswer(t, body, &podQuery{})
	})
}

// shuffledJSON encodes v with the keys of every object in a random order.
func shuffledJSON(t *testing.T, r *rand.Rand, v any) []byte {
	m, ok := v.(map[string]any)
	if !ok {
		if l, ok := v.([]any); ok {
			parts := make([]string, len(l))
			for i, e := range l {
				parts[i] = string(shuffledJSON(t, r, e))
			}
			return []byte("[" + strings.Join(parts, ",") + "]")
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	r.Shuffle(len(keys), func(a, b int) { keys[a], keys[b] = keys[b], keys[a] })
	parts := make([]string, len(keys))
	for i, k := range keys {
		kb, _ := json.Marshal(k)
		parts[i] = string(kb) + ":" + string(shuffledJSON(t, r, m[k]))
	}
	return []byte("{" + strings.Join(parts, ",") + "}")
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

package podjson

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The hand-written pod decoder and v1 encoder against encoding/json: the
// same v1 answer for every generated v2 pod. The reference is
// encoding/json's decoding into V2Pod, R-Pod (V1PodFrom) and
// json.Marshal; the gateway's paths are DecodePodList, FillV1Pod and
// AppendV1Pod here, and PodStream with AppendV1PodOf (the fused encoder)
// in stream_test.go, which checks them byte for byte against these.

// v2PodList is the v2 list answer {"pods": [...]}, for encoding/json.
type v2PodList struct {
	Pods []V2Pod `json:"pods"`
}

// referenceV1 is the slow path: encoding/json decode, R-Pod, json.Marshal.
func referenceV1(t testing.TB, body []byte) []byte {
	var list v2PodList
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatalf("encoding/json rejects %s: %v", body, err)
	}
	out := make([]V1Pod, len(list.Pods))
	for i := range list.Pods {
		out[i] = V1PodFrom(&list.Pods[i])
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

// v1ListOf is the v1 list of the pods DecodePodList reads from body, or
// its error.
func v1ListOf(body []byte) ([]byte, error) {
	pods, err := DecodePodList(body)
	if err != nil {
		return nil, err
	}
	out := make([]V1Pod, len(pods))
	for i := range pods {
		FillV1Pod(&out[i], &pods[i])
	}
	return AppendV1Pods(nil, out), nil
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
		if _, err := DecodePodList([]byte(b)); err == nil {
			t.Errorf("decodePodList(%q) succeeded", b)
		}
	}
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

// FuzzPodJSONEquivalence drives the generator of TestPodJSONMatchesEncodingJSON
// with fuzzed seeds: R-Pod's reference (FillV1Pod, AppendV1Pod) on the
// hand-written decoder against encoding/json, and the fused encoder
// (AppendV1PodOf) against the reference, byte for byte.
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
		// And the fused encoder (AppendV1PodOf, from a PodStream) writes
		// the reference's bytes (FillV1Pod, AppendV1Pod).
		sameStreamedList(t, body)
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
		sameStreamedList(t, body)
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

// FuzzPodListDecodeInto checks DecodePodListInto against DecodePodList on
// any input, with room and storage that held another list before (as the
// GraphQL door's pooled lists do): the same pods, or the same error.
func FuzzPodListDecodeInto(f *testing.F) {
	f.Add(hundredPods()[:2000])
	f.Add([]byte(podList(pod("a"), pod("b", cpuPod))))
	f.Add([]byte(`{"pods":[{"id":"\ud83d\ude00","runtime":{"ports":[{"private":1,"public":null}]}}]}`))
	f.Add([]byte(`{"pods":null}`))
	f.Add([]byte(`{"pods":[{"id":"a"}],"pods":[{"id":"b"}]}`))
	earlier := hundredPods()
	f.Fuzz(func(t *testing.T, b []byte) {
		var st PodStorage
		room, err := DecodePodListInto(earlier, nil, &st)
		if err != nil {
			t.Fatal(err)
		}
		clear(room)
		st.Clear()
		got, gotErr := DecodePodListInto(b, room, &st)
		want, wantErr := DecodePodList(b)
		if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
			t.Fatalf("error %v, DecodePodList's %v", gotErr, wantErr)
		}
		if len(got) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got, want)) {
			t.Fatalf("pods differ from DecodePodList's:\n%+v\n%+v", got, want)
		}
	})
}

package translate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// The streamed list (podliststream.go) against the decomposed one: same
// answers and errors, byte for byte, however v2's answer arrives; and what
// a client sees when v2 fails after the status was sent.

// chunkReader hands out its bytes size at a time, then fails with err
// (io.EOF when nil) after failAt bytes if failAt >= 0.
type chunkReader struct {
	b      []byte
	size   int
	failAt int
	err    error
	closed bool
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if r.failAt >= 0 && len(r.b) == 0 {
		return 0, r.err
	}
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), r.size, len(r.b))
	n = copy(p, r.b[:n])
	r.b = r.b[n:]
	return n, nil
}

func (r *chunkReader) Close() error { r.closed = true; return nil }

// streamCaller answers GET /v2/pods with body, read through a chunkReader.
type streamCaller struct {
	status int
	body   *chunkReader
}

func (c *streamCaller) Call(context.Context, V2Call) (*V2Answer, error) {
	return nil, errors.New("the list must be streamed")
}

func (c *streamCaller) CallStream(_ context.Context, call V2Call) (*V2Answer, io.ReadCloser, error) {
	if call.Path != "/v2/pods" {
		return nil, nil, fmt.Errorf("unexpected call %s", call.Path)
	}
	return &V2Answer{Status: c.status}, c.body, nil
}

// withStreamSizes sets the stream's sizes for one test.
func withStreamSizes(t testing.TB, prefix, commit, pods, bytes int) {
	p, c, wp, wb := listPrefixBytes, listCommitBytes, listWindowPods, listWindowBytes
	listPrefixBytes, listCommitBytes, listWindowPods, listWindowBytes = prefix, commit, pods, bytes
	t.Cleanup(func() { listPrefixBytes, listCommitBytes, listWindowPods, listWindowBytes = p, c, wp, wb })
}

// runStreamed runs GET /v1/pods on body through a streamCaller: the
// status, the bytes written and whether the connection would be aborted.
func runStreamed(t testing.TB, req *Request, body []byte, chunk int, q *podQuery) (status int, written []byte, aborted bool) {
	r := &chunkReader{b: body, size: chunk, failAt: -1}
	res := listPodsStreamed(context.Background(), req, &streamCaller{status: 200, body: r}, q)
	if res.Stream == nil {
		defer ReleaseBody(res.Body)
		if !r.closed {
			t.Fatal("the v2 answer was not closed")
		}
		return res.Status, append([]byte(nil), res.Body...), false
	}
	var w bytes.Buffer
	fail := res.Stream(&w)
	if !r.closed {
		t.Fatal("the v2 answer was not closed")
	}
	if fail == nil {
		return res.Status, w.Bytes(), false
	}
	if w.Len() == 0 {
		return fail.Status, fail.Body, false
	}
	return 200, w.Bytes(), true
}

func sameStreamedAnswer(t *testing.T, body []byte, chunk int, q *podQuery) {
	t.Helper()
	want := decomposedList(body, q)
	status, got, aborted := runStreamed(t, &Request{}, body, chunk, q)
	if aborted || status != want.Status || !bytes.Equal(got, want.Body) {
		t.Fatalf("for %.300q (chunks of %d)\nstreamed   %d %.300s (aborted %v)\ndecomposed %d %.300s", body, chunk, status, got, aborted, want.Status, want.Body)
	}
}

func TestAStreamedListAnswersAsTheWholeAnswer(t *testing.T) {
	bodies := append([]string{string(hundredPods())}, streamEdgeCases...)
	for _, tc := range []struct {
		name                 string
		prefix, commit, pods int
	}{
		{"read whole (short answers)", 64 << 10, 32 << 10, 128},
		{"streamed, held until the end", 8, 1 << 30, 3},
		{"streamed, held until the end, one pod per window", 1, 1 << 30, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			withStreamSizes(t, tc.prefix, tc.commit, tc.pods, 1<<30)
			for _, body := range bodies {
				for _, chunk := range []int{1, 7, 4096} {
					sameStreamedAnswer(t, []byte(body), chunk, &podQuery{})
				}
			}
		})
	}
}

func TestAStreamedListKeepsTheFilters(t *testing.T) {
	withStreamSizes(t, 16, 1<<30, 4, 1<<30)
	dc := "EU-RO-1"
	for _, q := range []*podQuery{{computeType: "CPU"}, {computeType: "GPU"}, {dataCenterIDs: []string{dc}}, {name: ptrTo("nothing")}} {
		sameStreamedAnswer(t, hundredPods(), 100, q)
	}
}

func TestAStreamedListIsSentAsItIsRead(t *testing.T) {
	withStreamSizes(t, 1024, 2048, 8, 4096)
	body := hundredPods()
	want := decomposedList(body, &podQuery{})
	r := &chunkReader{b: body, size: 512, failAt: -1}
	res := listPodsStreamed(context.Background(), &Request{}, &streamCaller{status: 200, body: r}, &podQuery{})
	if res.Stream == nil || res.Status != 200 {
		t.Fatalf("not streamed: %d %.200s", res.Status, res.Body)
	}
	var w writesRecorder
	if fail := res.Stream(&w); fail != nil {
		t.Fatalf("failed: %d %s", fail.Status, fail.Body)
	}
	if !bytes.Equal(w.all, want.Body) {
		t.Fatalf("streamed %.300s\nwant %.300s", w.all, want.Body)
	}
	if w.writes < 10 || w.largest > 4096+2048 {
		t.Errorf("%d writes, the largest %d bytes: the answer was not sent in windows", w.writes, w.largest)
	}
}

func TestAStreamedListThatEndsWhileHeldIsWrittenWhole(t *testing.T) {
	body := hundredPods()
	want := decomposedList(body, &podQuery{})
	for _, tc := range []struct {
		commit       int
		whole, parts int
	}{{len(want.Body) + 1, 1, 0}, {len(want.Body) / 4, 0, 4}} {
		withStreamSizes(t, 1024, tc.commit, 8, 1<<30)
		r := &chunkReader{b: body, size: 512, failAt: -1}
		res := listPodsStreamed(context.Background(), &Request{}, &streamCaller{status: 200, body: r}, &podQuery{})
		var w wholeRecorder
		if fail := res.Stream(&w); fail != nil {
			t.Fatalf("failed: %d %s", fail.Status, fail.Body)
		}
		if !bytes.Equal(w.all, want.Body) {
			t.Fatalf("streamed %.300s\nwant %.300s", w.all, want.Body)
		}
		if w.wholes != tc.whole || w.writes < tc.parts || tc.parts == 0 && w.writes != 0 {
			t.Errorf("held %d bytes of a %d-byte answer: %d whole writes and %d in pieces, want %d whole and %d or more pieces",
				tc.commit, len(want.Body), w.wholes, w.writes, tc.whole, tc.parts)
		}
	}
}

// wholeRecorder is a writesRecorder that is also a WholeWriter.
type wholeRecorder struct {
	writesRecorder
	wholes int
}

func (w *wholeRecorder) WriteWhole(p []byte) (int, error) {
	w.wholes++
	w.all = append(w.all, p...)
	return len(p), nil
}

type writesRecorder struct {
	all             []byte
	writes, largest int
}

func (w *writesRecorder) Write(p []byte) (int, error) {
	w.all = append(w.all, p...)
	w.writes++
	w.largest = max(w.largest, len(p))
	return len(p), nil
}

func TestWhenV2FailsMidStreamTheClientSeesAnErrorOrABrokenList(t *testing.T) {
	body := hundredPods()
	cut := len(body) * 2 / 3
	for _, tc := range []struct {
		name       string
		commit     int
		body       []byte
		err        error
		wantStatus int // 0: sent, then aborted
	}{
		{"the connection breaks before the answer was sent: 502", 1 << 30, body[:cut], errors.New("connection reset by peer"), 502},
		{"v2's time runs out before the answer was sent: 504", 1 << 30, body[:cut], context.DeadlineExceeded, 504},
		{"an unreadable pod before the answer was sent: 502", 1 << 30, append(append([]byte{}, body[:cut]...), `}}}`...), nil, 502},
		{"the connection breaks after the answer was sent: aborted", 2048, body[:cut], errors.New("connection reset by peer"), 0},
		{"an unreadable pod after the answer was sent: aborted", 2048, append(append([]byte{}, body[:cut]...), `}}}`...), nil, 0},
		{"a second pods member after the answer was sent: aborted", 2048, append(append([]byte{}, body[:len(body)-1]...), `,"pods":[]}`...), nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			withStreamSizes(t, 1024, tc.commit, 8, 4096)
			failAt := -1
			if tc.err != nil {
				failAt = len(tc.body)
			}
			r := &chunkReader{b: tc.body, size: 300, failAt: failAt, err: tc.err}
			res := listPodsStreamed(context.Background(), &Request{}, &streamCaller{status: 200, body: r}, &podQuery{})
			var w bytes.Buffer
			fail := res.Stream(&w)
			if fail == nil {
				t.Fatalf("no failure; wrote %.200s", w.Bytes())
			}
			if tc.wantStatus != 0 {
				if w.Len() != 0 || fail.Status != tc.wantStatus {
					t.Fatalf("status %d after %d bytes written, want %d before any", fail.Status, w.Len(), tc.wantStatus)
				}
				return
			}
			if w.Len() == 0 {
				t.Fatalf("nothing written: %d %s", fail.Status, fail.Body)
			}
			if bytes.HasSuffix(w.Bytes(), []byte("]")) {
				t.Fatalf("the truncated list ends like a whole one: …%s", w.Bytes()[w.Len()-40:])
			}
		})
	}
}

func TestAStreamedListLooksUpTheStoreOncePerWindow(t *testing.T) {
	var pods []string
	for i := range 300 {
		pods = append(pods, pod(fmt.Sprintf("pod%03d", i), set("templateId", nil)))
	}
	body := []byte(podList(pods...))
	kv := []string{}
	for i := 0; i < 300; i += 7 {
		kv = append(kv, FactPod, fmt.Sprintf("pod%03d", i), fmt.Sprintf("tpl%03d", i))
	}
	whole := newFakeFacts(kv...)
	want := streamPodList(context.Background(), &Request{Facts: whole}, &V2Answer{Status: 200, Body: body}, &podQuery{})
	defer ReleaseBody(want.Body)
	if !bytes.Contains(want.Body, []byte(`"templateId":"tpl007"`)) {
		t.Fatalf("the whole answer has no template from the store: %.300s", want.Body)
	}
	withStreamSizes(t, 1024, 4096, 128, 1<<30)
	f := newFakeFacts(kv...)
	status, got, aborted := runStreamed(t, &Request{Facts: f}, body, 1000, &podQuery{})
	if status != 200 || aborted || !bytes.Equal(got, want.Body) {
		t.Fatalf("streamed %d %.300s\nwant %.300s", status, got, want.Body)
	}
	if len(f.lookups) != 3 || len(f.lookups[0]) != 128 || len(f.lookups[2]) != 300-256 {
		t.Errorf("%d lookups for 300 pods in windows of 128, want 3", len(f.lookups))
	}
	if len(whole.lookups) != 1 {
		t.Errorf("%d lookups for a list read whole, want 1", len(whole.lookups))
	}
}

func TestAV2ErrorIsNotStreamed(t *testing.T) {
	op, _ := Lookup("ListPods")
	c := &errStreamCaller{}
	res := op.Plan(context.Background(), &Request{Op: op}, c)
	if res.Stream != nil || res.Status != http.StatusUnauthorized {
		t.Fatalf("%d, streamed %v", res.Status, res.Stream != nil)
	}
}

type errStreamCaller struct{ streamCaller }

func (c *errStreamCaller) CallStream(context.Context, V2Call) (*V2Answer, io.ReadCloser, error) {
	return &V2Answer{Status: 401, Body: []byte(`{"error":"bad key"}`)}, nil, nil
}

// FuzzStreamPodListReader: on any input, arriving in pieces of any size,
// the streamed list answers exactly as the decomposed one; and so does the
// list read whole (streamPodList). (podjson's FuzzStreamPodList checks
// its stream without the plan.)
func FuzzStreamPodListReader(f *testing.F) {
	for _, c := range streamEdgeCases {
		f.Add([]byte(c), uint8(1))
	}
	f.Add(hundredPods()[:3000], uint8(5))
	f.Fuzz(func(t *testing.T, b []byte, chunk uint8) {
		withStreamSizes(t, 4, 1<<30, 2, 1<<30)
		sameStreamedAnswer(t, b, int(chunk%64)+1, &podQuery{})
		sameListAnswer(t, b, &podQuery{}) // read whole
	})
}

// TestAStreamedListKeepsEachPodsEscapedStrings: read through a window, a
// pod's strings with escapes are decoded into storage the next pod reuses;
// every pod still shows its own (name, args, image) and the store is asked
// about its own id (an id with an escape is copied before the next pod).
func TestAStreamedListKeepsEachPodsEscapedStrings(t *testing.T) {
	var pods []string
	for i := range 300 {
		pods = append(pods, pod(fmt.Sprintf("podX%03d", i), set("templateId", nil),
			set("name", fmt.Sprintf("n\"%d\\é\u2028", i)), set("args", fmt.Sprintf(`sh -c "echo \"%d\"\n"`, i)),
			set("image", fmt.Sprintf("img\t%d", i))))
	}
	body := bytes.ReplaceAll([]byte(podList(pods...)), []byte(`"podX`), []byte(`"pod\u0030`))
	kv := []string{}
	for i := 0; i < 300; i += 7 {
		kv = append(kv, FactPod, fmt.Sprintf("pod0%03d", i), fmt.Sprintf("tpl%03d", i))
	}
	whole := newFakeFacts(kv...)
	want := streamPodList(context.Background(), &Request{Facts: whole}, &V2Answer{Status: 200, Body: body}, &podQuery{})
	defer ReleaseBody(want.Body)
	if !bytes.Contains(want.Body, []byte(`"templateId":"tpl007"`)) || !bytes.Contains(want.Body, []byte(`"id":"pod0299"`)) {
		t.Fatalf("the whole answer: %.300s", want.Body)
	}
	for _, chunk := range []int{1, 333, 1000, 1 << 20} {
		withStreamSizes(t, 1024, 4096, 128, 1<<30)
		f := newFakeFacts(kv...)
		status, got, aborted := runStreamed(t, &Request{Facts: f}, body, chunk, &podQuery{})
		if status != 200 || aborted || !bytes.Equal(got, want.Body) {
			t.Fatalf("chunks of %d: streamed %d %.300s\nwant %.300s", chunk, status, got, want.Body)
		}
	}
}

// TestStreamedListsDoNotShareTheirPods: a streamed list decodes its pods
// into the storage of the lists before it (listScratch), and writes their
// dockerStartCmd through its memo of args. Lists of different pods — GPU
// and CPU pods, network mounts, 0 to 40 runtime ports, names with
// escapes, args of each list (the same length in every list, more
// distinct ones than the memo keeps), some ids known to the store —
// streamed in turn and eight at once, each answer byte for byte as read
// whole.
func TestStreamedListsDoNotShareTheirPods(t *testing.T) {
	const lists = 8
	bodies := make([][]byte, lists)
	kvs := make([][]string, lists)
	for l := range lists {
		var pods []string
		for i := range 20 + 17*l {
			id := fmt.Sprintf("pod%d-%03d", l, i)
			mods := []func(map[string]any){set("templateId", nil), set("name", fmt.Sprintf("n\"%d\\%d", l, i)),
				set("args", fmt.Sprintf(`run --list %d --kind "%d"`, l, i%6))}
			switch i % 4 {
			case 0:
				mods = append(mods, set("gpu", fmt.Sprintf(`{"id":"NVIDIA L%d","count":%d}`, l, 1+i%3)))
			case 1:
				mods = append(mods, cpuPod, set("cpu", fmt.Sprintf(`{"id":"cpu3c","vcpuCount":%d,"memory":%d}`, 2+l, 4+i)))
			case 2:
				mods = append(mods, set("mounts", fmt.Sprintf(`{"network":[{"volumeId":"vol%d-%d","path":"/v%d"}]}`, l, i, i)))
			}
			var ports []string
			for j := range (i * 7) % 41 {
				ports = append(ports, fmt.Sprintf(`{"private":%d,"public":%d,"type":"tcp","ip":"10.%d.%d.1"}`, 1000+j, 20000+l*100+i, l, j))
			}
			mods = append(mods, set("runtime", `{"uptime":`+fmt.Sprint(i)+`,"ports":[`+strings.Join(ports, ",")+`]}`))
			pods = append(pods, pod(id, mods...))
			if i%5 == 0 {
				kvs[l] = append(kvs[l], FactPod, id, fmt.Sprintf("tpl%d-%d", l, i))
			}
		}
		bodies[l] = []byte(podList(pods...))
	}
	wants := make([][]byte, lists)
	for l := range lists {
		want := streamPodList(context.Background(), &Request{Facts: newFakeFacts(kvs[l]...)}, &V2Answer{Status: 200, Body: bodies[l]}, &podQuery{})
		wants[l] = append([]byte(nil), want.Body...)
		ReleaseBody(want.Body)
		if !bytes.Contains(wants[l], []byte(fmt.Sprintf(`"templateId":"tpl%d-5"`, l))) {
			t.Fatalf("list %d read whole: %.300s", l, wants[l])
		}
	}
	withStreamSizes(t, 1024, 4096, 16, 1<<30)
	check := func(l, chunk int) error {
		status, got, aborted := runStreamed(t, &Request{Facts: newFakeFacts(kvs[l]...)}, bodies[l], chunk, &podQuery{})
		if status != 200 || aborted || !bytes.Equal(got, wants[l]) {
			return fmt.Errorf("list %d in chunks of %d: %d (aborted %v)\n%.400s\nwant\n%.400s", l, chunk, status, aborted, got, wants[l])
		}
		return nil
	}
	for l := range lists {
		if err := check(l, 1000); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, lists)
	for l := range lists {
		wg.Go(func() {
			for round := range 5 {
				if err := check((l+round)%lists, 333+round*4000); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// TestAListScratchKeepsNoPointer: what a list leaves for the next one holds
// no reference to its answer, and buffers grown past the usual are dropped.
// (Its pod storage is podjson's, checked by podjson's
// TestPodStorageClearKeepsNoPointer.)
func TestAListScratchKeepsNoPointer(t *testing.T) {
	sc := new(listScratch)
	sc.ends = append(sc.ends, podListEnd{id: "pod1", end: 3, idEnd: 4})
	sc.keys = append(sc.keys, "pod1")
	sc.ids = append(sc.ids, "pod1"...)
	big := new(listScratch)
	big.ends = make([]podListEnd, 0, maxKeptListEnds+1)
	big.ids = make([]byte, 0, maxKeptIDBytes+1)

	sc.reset()
	big.reset()
	if sc.ends[:1][0] != (podListEnd{}) || sc.keys[:1][0] != "" {
		t.Errorf("an id or key kept: %+v %q", sc.ends[:1], sc.keys[:1])
	}
	if len(sc.ends) != 0 || len(sc.ids) != 0 || cap(sc.ends) == 0 {
		t.Errorf("not emptied, or not kept: %d ends (cap %d), %d id bytes", len(sc.ends), cap(sc.ends), len(sc.ids))
	}
	if big.ends != nil || cap(big.ids) != 0 {
		t.Errorf("buffers past the usual sizes kept: %d ends, %d id bytes", cap(big.ends), cap(big.ids))
	}
}

// TestAListStreamHoldsNoScratchOnceWritten: once a streamed list is
// written, its Result holds neither the scratch nor its window (both went
// on to other lists, maybe another API key's), the scratch is emptied,
// and a second write fails without writing a byte.
func TestAListStreamHoldsNoScratchOnceWritten(t *testing.T) {
	withStreamSizes(t, 256, 4096, 16, 1<<30)
	var pods []string
	for i := range 20 {
		pods = append(pods, pod(fmt.Sprintf("pod-%02d", i), set("templateId", nil)))
	}
	body := []byte(podList(pods...))
	for _, tc := range []struct {
		name string
		req  *Request
	}{
		{"without a store", &Request{}},
		{"with a store", &Request{Facts: newFakeFacts(FactPod, "pod-03", "tpl3", FactPod, "pod-17", "tpl17")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// What listPodsStreamed does for a list longer than the window.
			r := &chunkReader{b: body, size: 100, failAt: -1}
			sc := listScratches.Get().(*listScratch)
			buf := sc.takePrefix()
			if n, err := io.ReadFull(r, buf); err != nil || n != 256 {
				t.Fatal(n, err)
			}
			ls := newListStream(context.Background(), tc.req, &podQuery{}, sc, buf, r)
			res := &ls.res
			if sc == nil || len(ls.prefix) != 256 {
				t.Fatalf("before: scratch %p, window %d bytes", sc, len(ls.prefix))
			}
			var w bytes.Buffer
			if fail := res.Stream(&w); fail != nil || !r.closed {
				t.Fatalf("first write: %+v, closed %v", fail, r.closed)
			}
			want := decomposedList(body, &podQuery{})
			if tc.req.Facts == nil && !bytes.Equal(w.Bytes(), want.Body) {
				t.Fatalf("answer %.200s\nwant %.200s", w.Bytes(), want.Body)
			}
			if ls.sc != nil || ls.prefix != nil {
				t.Errorf("the Result still holds the scratch (%p) or its window (%d bytes)", ls.sc, len(ls.prefix))
			}
			if len(sc.ends) != 0 || len(sc.ids) != 0 || len(sc.out) != 0 || len(sc.spare) != 0 || len(sc.prefix) != 0 {
				t.Errorf("the scratch given back is not empty: %d ends, %d id bytes, %d+%d answer bytes", len(sc.ends), len(sc.ids), len(sc.out), len(sc.spare))
			}
			n := w.Len()
			if fail := res.Stream(&w); fail == nil || fail.Status != http.StatusInternalServerError || w.Len() != n {
				t.Errorf("second write: %+v, %d more bytes", fail, w.Len()-n)
			}
		})
	}
}

// A list's scratch keeps its window and answer buffers for the next list,
// but not grown ones.
func TestListScratchBuffers(t *testing.T) {
	withStreamSizes(t, 1024, 4096, 16, 1<<30)
	var sc listScratch
	b := sc.takePrefix()
	if len(b) != 1024 || cap(b) != 1024 || sc.prefix != nil {
		t.Fatalf("a new window: len %d cap %d", len(b), cap(b))
	}
	sc.keepPrefix(b[:10])
	if got := sc.takePrefix(); len(got) != 1024 || &got[0] != &b[0] {
		t.Errorf("the window was not kept")
	}
	sc.keepPrefix(make([]byte, 2048)) // grown by a large pod
	if sc.prefix != nil {
		t.Errorf("a grown window was kept")
	}
	sc.out = append(sc.takeOut(), "answer"...)
	sc.spare = make([]byte, 5, maxKeptOutBytes+1)
	sc.reset()
	if len(sc.out) != 0 || cap(sc.out) == 0 || sc.spare != nil {
		t.Errorf("after reset: out %d/%d, spare cap %d", len(sc.out), cap(sc.out), cap(sc.spare))
	}
	if got := sc.takeOut(); len(got) != 0 || cap(got) != cap(sc.out) {
		t.Errorf("takeOut: %d/%d", len(got), cap(got))
	}
}

// insertPodTemplates builds the same answer in a spare buffer as in a
// pool's, and hands the old buffer over in its place.
func TestInsertPodTemplatesSpare(t *testing.T) {
	req := &Request{Facts: newFakeFacts(FactPod, "p1", "tpl1", FactPod, "p3", "tpl3")}
	list := `[{"id":"p1","templateId":null},{"id":"p2","templateId":null},{"id":"p3","templateId":null}]`
	ends := []podListEnd{{id: "p1", end: 29}, {id: "p2", end: 59}, {id: "p3", end: 89}}
	want := `[{"id":"p1","templateId":"tpl1"},{"id":"p2","templateId":null},{"id":"p3","templateId":"tpl3"}]`
	for _, spareCap := range []int{0, 8, 4096} {
		b := append(make([]byte, 0, 128), list...)
		spare := make([]byte, 0, spareCap)
		got := insertPodTemplates(context.Background(), req, b, ends, nil, &spare)
		if string(got) != want {
			t.Errorf("spare of %d: %s", spareCap, got)
		}
		if len(spare) != 0 || cap(spare) != 128 || &spare[:1][0] != &b[0] {
			t.Errorf("spare of %d: the old buffer was not handed over (len %d cap %d)", spareCap, len(spare), cap(spare))
		}
		if pooled := insertPodTemplates(context.Background(), req, []byte(list), ends, nil, nil); string(pooled) != want {
			t.Errorf("pooled: %s", pooled)
		}
	}
}

// TestTakeOutIsSizedForUsualAnswers: the v1 answer's first buffer is sized
// for what is held before the status is sent, but never past what a
// scratch keeps. With listCommitBytes at 1 GiB (tests that hold a whole
// list), each list allocated 1 GiB: FuzzStreamPodListReader ran about one
// input a second and once died under load.
func TestTakeOutIsSizedForUsualAnswers(t *testing.T) {
	if c := cap(new(listScratch).takeOut()); c != listCommitBytes+16<<10 {
		t.Errorf("default sizes: cap %d, want %d", c, listCommitBytes+16<<10)
	}
	withStreamSizes(t, 4, 1<<30, 2, 1<<30)
	if c := cap(new(listScratch).takeOut()); c > maxKeptOutBytes+16<<10 {
		t.Errorf("with listCommitBytes 1 GiB: cap %d, want at most %d", c, maxKeptOutBytes+16<<10)
	}
}

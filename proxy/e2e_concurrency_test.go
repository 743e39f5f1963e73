package proxy

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
)

// TestE2EConcurrentAnswersIntact drives translated reads from many
// goroutines at once: upstream answer bodies and v1 answer buffers are
// pooled, so a buffer handed out again while still in use would show as a
// corrupted answer here (and as a data race under -race).
func TestE2EConcurrentAnswersIntact(t *testing.T) {
	e := newE2E(t, e2eOpts{seed: true})
	paths := []string{
		"/v1/pods",
		"/v1/pods?includeMachine=true&includeNetworkVolume=true",
		"/v1/pods?desiredStatus=EXITED",
		"/v1/endpoints",
		"/v1/templates",
		"/v1/networkvolumes",
	}
	all := e.v1("GET", "/v1/pods", "").list(t)
	for _, p := range all {
		paths = append(paths, fmt.Sprintf("/v1/pods/%v", p["id"]))
	}
	want := map[string][]byte{}
	for _, p := range paths {
		r := e.v1("GET", p, "")
		e.want(r, 200)
		want[p] = r.body
	}
	var wg sync.WaitGroup
	errs := make(chan string, 100)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				p := paths[(g+i)%len(paths)]
				r := e.call(e.gw, "k1", "GET", p, "")
				if r.status != 200 || !bytes.Equal(r.body, want[p]) {
					select {
					case errs <- fmt.Sprintf("%s: status %d, body %.200q, want %.200q", p, r.status, r.body, want[p]):
					default:
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for msg := range errs {
		t.Error(msg)
	}
}

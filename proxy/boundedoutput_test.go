package proxy

import (
	"fmt"
	"strings"
	"testing"
)

func TestGraphQLWarningsMakeOneBoundedHeaderWithTheirCount(t *testing.T) {
	var ws []string
	for i := range 1000 {
		ws = append(ws, fmt.Sprintf("warning %d: v2 has no source for Pod.machineId, answered null", i))
	}
	h := compatWarningHeader(ws)
	if len(h) > maxCompatWarningBytes+100 {
		t.Errorf("header of %d bytes", len(h))
	}
	if !strings.HasPrefix(h, "warning 0: ") || !strings.Contains(h, "(1000 warnings, ") {
		t.Errorf("header %q", h)
	}
	if h := compatWarningHeader([]string{"a", "b"}); h != "a; b" {
		t.Errorf("two warnings: %q", h)
	}
}

func TestTheAccessLogLineIsBounded(t *testing.T) {
	long := make([]string, 1000)
	for i := range long {
		long[i] = fmt.Sprintf("field%d", i)
	}
	got := capStrings(long, maxLogList)
	if len(got) != maxLogList+1 || got[maxLogList] != "(+968 more)" {
		t.Errorf("capped list %d entries, last %q", len(got), got[len(got)-1])
	}
	if s := capString(strings.Repeat("é", 1000), maxLogString); len(s) > maxLogString+len("…") || !strings.HasSuffix(s, "…") {
		t.Errorf("capped string of %d bytes", len(s))
	}
	short := []string{"a", "b"}
	if got := capStrings(short, maxLogList); &got[0] != &short[0] {
		t.Error("a short list was copied")
	}
}

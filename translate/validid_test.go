package translate

import (
	"strings"
	"testing"
)

// ValidID decides which v1 path ids may be forwarded into a v2 path (P9):
// an id that could address another route, or that no v2 id can be, is
// refused before any v2 call.
func TestValidIDRefusesWhatNoV2IDCanBe(t *testing.T) {
	for _, c := range []struct {
		id   string
		want bool
	}{
		{"abc123", true},
		{"u5wlqg2xk1ffxa", true},
		{"clzb0r1eg0001abcd", true},
		{"a.b", true},
		{"é-accented", true}, // valid UTF-8 is forwarded, percent-encoded
		{strings.Repeat("a", 191), true},
		{"", false},
		{".", false},
		{"..", false},
		{strings.Repeat("a", 192), false},
		{"a/b", false},
		{`a\b`, false},
		{"a\x00b", false},
		{"a\nb", false},
		{"a\x7fb", false},
		{"\xff", false},         // invalid UTF-8: no v2 id, and a v2 server may decode it otherwise
		{"ab\xc3", false},       // a truncated sequence
		{"\xed\xa0\x80", false}, // an encoded surrogate
	} {
		if got := ValidID(c.id); got != c.want {
			t.Errorf("ValidID(%q) = %v, want %v", c.id, got, c.want)
		}
	}
}

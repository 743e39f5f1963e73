package proxy

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// The key-id cache keeps no token: 4096 tokens of the longest accepted size
// leave only fixed-size hashes and ids behind (issue: tokens near the header
// limit kept ~250 MB live through the cache).
func TestKeyIDCacheHoldsNoTokens(t *testing.T) {
	c := newKeyIDCache([]byte("secret"))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := 0; i < c.max; i++ {
		tok := fmt.Sprintf("%04d", i) + strings.Repeat("x", MaxAPIKeyBytes-4)
		if c.get(tok) == "" {
			t.Fatal("empty key id")
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	live := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	tokens := int64(c.max * MaxAPIKeyBytes)
	if live > tokens/2 {
		t.Fatalf("cache of %d entries keeps %d bytes live; the tokens alone are %d bytes", c.max, live, tokens)
	}
	// Same token, same id; the cache answers it.
	if a, b := c.get("abc"), c.get("abc"); a != b {
		t.Fatalf("ids differ: %q %q", a, b)
	}
}

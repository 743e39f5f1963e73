package facts

import (
	"fmt"
	"testing"

	"github.com/v1gateway/v1gateway/translate"
)

// Lookup's keys are the keys Record and Forget write, byte for byte.
func TestLookupKeysAreTheKeysRecordWrites(t *testing.T) {
	for _, prefix := range []string{DefaultRedisPrefix, "", "p:"} {
		r := &Redis{prefix: prefix}
		for _, kind := range []string{translate.FactPod, translate.FactEndpoint} {
			ids := []string{"abc123", "", "x", "id with {braces} and ünïcode", "abc123"}
			keys := r.lookupKeys(kind, ids)
			if len(keys) != len(ids) {
				t.Fatalf("%d keys for %d ids", len(keys), len(ids))
			}
			for i, id := range ids {
				if want := r.key(kind, id); keys[i] != want {
					t.Errorf("prefix %q, kind %q, id %q: key %q, want %q", prefix, kind, id, keys[i], want)
				}
			}
		}
		if keys := r.lookupKeys(translate.FactPod, nil); len(keys) != 0 {
			t.Errorf("keys of no ids: %q", keys)
		}
	}
	r := &Redis{prefix: DefaultRedisPrefix}
	if got, want := r.lookupKeys(translate.FactPod, []string{"p1"})[0], "v1gw:facts:pod:{p1}"; got != want {
		t.Errorf("key %q, want %q", got, want)
	}
}

// BenchmarkLookupKeys: the keys of one lookup of a page of 100 pods
// (go test -run '^$' -bench LookupKeys -benchmem ./facts/).
func BenchmarkLookupKeys(b *testing.B) {
	r := &Redis{prefix: DefaultRedisPrefix}
	ids := make([]string, 100)
	for i := range ids {
		ids[i] = fmt.Sprintf("%014x", i*7919)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = r.lookupKeys(translate.FactPod, ids)
	}
}

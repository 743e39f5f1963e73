package proxy

import (
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/v1gateway/v1gateway/translate"
)

// catalogCache keeps successful GET /v2/catalog/... answers for a short
// time. The catalog (GPU and CPU types, data centers, public templates) is
// the vendor's and the same for every key, and plans read it to rank
// candidates and expand answers; caching keeps those reads off the caller's
// rate-limit quota (H11) and off the request's latency.
type catalogCache struct {
	ttl time.Duration
	now func() time.Time
	max int

	mu      sync.Mutex
	entries map[string]catalogEntry
}

type catalogEntry struct {
	answer  *translate.V2Answer
	expires time.Time
	// hit is set once the entry answered a call: a full cache makes room
	// by dropping the entries nobody asked for again first.
	hit bool
}

func newCatalogCache(ttl time.Duration, now func() time.Time) *catalogCache {
	return &catalogCache{ttl: ttl, now: now, max: 256, entries: make(map[string]catalogEntry)}
}

// cacheable reports whether a call may be answered from the cache.
func cacheable(c translate.V2Call) bool {
	return c.Method == http.MethodGet && strings.HasPrefix(c.Path, "/v2/catalog/")
}

func cacheKey(c translate.V2Call) string {
	if len(c.Query) == 0 {
		return c.Path
	}
	return c.Path + "?" + c.Query.Encode()
}

func (cc *catalogCache) get(c translate.V2Call) (*translate.V2Answer, bool) {
	if cc == nil || cc.ttl <= 0 || !cacheable(c) {
		return nil, false
	}
	k := cacheKey(c)
	cc.mu.Lock()
	defer cc.mu.Unlock()
	e, ok := cc.entries[k]
	if !ok {
		return nil, false
	}
	if !cc.now().Before(e.expires) {
		delete(cc.entries, k)
		return nil, false
	}
	if !e.hit {
		e.hit = true
		cc.entries[k] = e
	}
	return e.answer, true
}

// put keeps a and returns the answer it keeps, or nil when it keeps none.
// The kept answer shares a's body, which must then never be reused, and
// is the one get returns until it expires: the caller answers with it
// too, so that what plans decode from it (translate decodes a catalog
// once per answer) serves every request of its lifetime, the first one
// included.
func (cc *catalogCache) put(c translate.V2Call, a *translate.V2Answer) *translate.V2Answer {
	if cc == nil || cc.ttl <= 0 || !cacheable(c) || a.Status != http.StatusOK {
		return nil
	}
	now := cc.now()
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if len(cc.entries) >= cc.max {
		// Bounded: drop expired entries, then those never asked for
		// again, then any one. One caller sending many distinct inputs
		// (a GraphQL document of distinct gpuTypes(input)) thus only
		// replaces its own entries, never the catalog every request reads.
		for k, e := range cc.entries {
			if !now.Before(e.expires) {
				delete(cc.entries, k)
			}
		}
		if len(cc.entries) >= cc.max {
			for k, e := range cc.entries {
				if !e.hit {
					delete(cc.entries, k)
					break
				}
			}
		}
		if len(cc.entries) >= cc.max {
			for k := range cc.entries {
				delete(cc.entries, k)
				break
			}
		}
	}
	// Only the body is kept: per-key headers (RateLimit) must not leak
	// between keys.
	kept := &translate.V2Answer{Status: a.Status, Header: http.Header{"Content-Type": a.Header["Content-Type"]}, Body: a.Body}
	cc.entries[cacheKey(c)] = catalogEntry{answer: kept, expires: now.Add(cc.ttl)}
	return kept
}

// Package facts is the gateway's fact store (P8, docs/design.md: "what v2
// forgets, the gateway remembers"): the link from a pod or a serverless
// endpoint to the template it was made from, which v1 showed and v2 does
// not keep, recorded when the gateway sees it and read back into v1
// answers. It implements translate.Facts, in Redis when V1GW_REDIS_URL is
// set (shared by every replica, surviving restarts) and in memory
// otherwise.
//
// The store is a cache of facts, never the truth of what exists: the
// gateway only ever applies a fact to a resource v2 has just returned, and
// forgets it when the resource is deleted or v2 answers 404 for it. Entries
// expire TTL after their last write (DefaultTTL, a year). Only ids are kept,
// and for a template what v1 had and v2 has no field for (its readme, its
// volume removed), never a secret. Losing the store loses these links and nothing else.
//
// Imported by proxy and cmd only; it imports translate for the interface's
// types, nothing else of the gateway.
package facts

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/v1gateway/v1gateway/translate"
)

// DefaultTTL is how long a fact lives after its last write when its
// resource is not deleted through the gateway.
const DefaultTTL = 365 * 24 * time.Hour

// Store is a fact store: translate.Facts plus what operators see.
type Store interface {
	translate.Facts
	Kind() string // "memory" or "redis"
	Close() error
}

var errKind = errors.New("facts: unknown kind")

func validKind(kind string) bool {
	return kind == translate.FactPod || kind == translate.FactEndpoint || kind == translate.FactTemplate
}

// encode is a fact as stored: "c:" (created through the gateway) or "u:"
// (updated with templateId) followed by the template id; for a template,
// "t:" then 'v' (its volume removed, NoVolume) or '-', then 'r' and the
// readme, or '-' when the readme is unknown.
func encode(f translate.Fact) string {
	switch {
	case f.Template != nil:
		b := []byte("t:--")
		if f.Template.NoVolume {
			b[2] = 'v'
		}
		if f.Template.Readme != nil {
			b[3] = 'r'
			return string(b) + *f.Template.Readme
		}
		return string(b)
	case f.Created:
		return "c:" + f.TemplateID
	}
	return "u:" + f.TemplateID
}

func decode(s string) (translate.Fact, bool) {
	switch {
	case strings.HasPrefix(s, "c:") && len(s) > 2:
		return translate.Fact{TemplateID: s[2:], Created: true}, true
	case strings.HasPrefix(s, "u:") && len(s) > 2:
		return translate.Fact{TemplateID: s[2:]}, true
	case strings.HasPrefix(s, "t:") && len(s) >= 4:
		t := &translate.TemplateFact{NoVolume: s[2] == 'v'}
		if s[3] == 'r' {
			r := s[4:]
			t.Readme = &r
		}
		return translate.Fact{Template: t}, true
	}
	return translate.Fact{}, false
}

// ---------------------------------------------------------------------------
// Memory

// Memory is the in-memory store (one replica). Safe for concurrent use.
type Memory struct {
	mu  sync.Mutex
	now func() time.Time
	ttl time.Duration
	max int
	// text is the bytes of template readmes held, bounded by maxText
	// (a readme is up to 16 KiB; a million entries alone do not bound it).
	text, maxText int
	entries       map[memKey]memEntry
	byTpl         map[string]map[string]struct{} // template id → endpoint ids
}

type memKey struct{ kind, id string }

type memEntry struct {
	fact translate.Fact
	exp  time.Time
}

// MemoryOptions configure NewMemory; zero values take the defaults.
type MemoryOptions struct {
	TTL        time.Duration    // 0: DefaultTTL
	MaxEntries int              // 0: 1,000,000 (about 150 MB at most, readmes aside)
	MaxText    int              // 0: 64 MiB of template readmes
	Now        func() time.Time // nil: time.Now
}

// ErrFull is returned by Record when the memory store holds MaxEntries
// live facts.
var ErrFull = errors.New("facts: the in-memory store is full")

// NewMemory returns an empty in-memory store.
func NewMemory(o MemoryOptions) *Memory {
	if o.TTL <= 0 {
		o.TTL = DefaultTTL
	}
	if o.MaxEntries <= 0 {
		o.MaxEntries = 1_000_000
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MaxText <= 0 {
		o.MaxText = 64 << 20
	}
	return &Memory{now: o.Now, ttl: o.TTL, max: o.MaxEntries, maxText: o.MaxText, entries: map[memKey]memEntry{}, byTpl: map[string]map[string]struct{}{}}
}

// Kind implements Store.
func (*Memory) Kind() string { return "memory" }

// Close implements Store.
func (*Memory) Close() error { return nil }

// Len is the number of facts held (expired ones included until swept).
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.entries)
}

// Lookup implements translate.Facts.
func (m *Memory) Lookup(_ context.Context, kind string, ids []string) (map[string]translate.Fact, error) {
	if !validKind(kind) {
		return nil, errKind
	}
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	var out map[string]translate.Fact
	for _, id := range ids {
		e, ok := m.entries[memKey{kind, id}]
		if !ok || !now.Before(e.exp) {
			continue
		}
		if out == nil {
			out = make(map[string]translate.Fact)
		}
		out[id] = e.fact
	}
	return out, nil
}

// Record implements translate.Facts. Created, once recorded, stays: an
// update with templateId does not unmake how the resource was created.
func (m *Memory) Record(_ context.Context, kind, id string, f translate.Fact) error {
	if !validKind(kind) {
		return errKind
	}
	// The strings may point into a buffer the caller reuses (the gateway
	// decodes v2 answers without copying): the store keeps copies.
	id, f.TemplateID = strings.Clone(id), strings.Clone(f.TemplateID)
	if t := f.Template; t != nil {
		c := *t
		if c.Readme != nil {
			r := strings.Clone(*c.Readme)
			c.Readme = &r
		}
		f.Template = &c
	}
	now := m.now()
	k := memKey{kind, id}
	m.mu.Lock()
	defer m.mu.Unlock()
	old, had := m.entries[k]
	if had && !now.Before(old.exp) {
		m.unlink(kind, id, old.fact.TemplateID)
		m.text -= textOf(old.fact)
		delete(m.entries, k)
		had = false
	}
	if !had && len(m.entries) >= m.max {
		m.sweep(now)
		if len(m.entries) >= m.max {
			return ErrFull
		}
	}
	grow := textOf(f)
	if had {
		grow -= textOf(old.fact)
	}
	if grow > 0 && m.text+grow > m.maxText {
		m.sweep(now)
		if m.text+grow > m.maxText {
			return ErrFull
		}
	}
	m.text += grow
	if had {
		f.Created = f.Created || old.fact.Created
		if old.fact.TemplateID != f.TemplateID {
			m.unlink(kind, id, old.fact.TemplateID)
		}
	}
	m.entries[k] = memEntry{fact: f, exp: now.Add(m.ttl)}
	if kind == translate.FactEndpoint {
		set := m.byTpl[f.TemplateID]
		if set == nil {
			set = map[string]struct{}{}
			m.byTpl[f.TemplateID] = set
		}
		set[id] = struct{}{}
	}
	return nil
}

// Forget implements translate.Facts.
func (m *Memory) Forget(_ context.Context, kind, id string) error {
	if !validKind(kind) {
		return errKind
	}
	k := memKey{kind, id}
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.entries[k]; ok {
		delete(m.entries, k)
		m.unlink(kind, id, e.fact.TemplateID)
		m.text -= textOf(e.fact)
	}
	return nil
}

// TemplateEndpoints implements translate.Facts.
func (m *Memory) TemplateEndpoints(_ context.Context, templateID string) ([]string, error) {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for id := range m.byTpl[templateID] {
		if e, ok := m.entries[memKey{translate.FactEndpoint, id}]; ok && now.Before(e.exp) && e.fact.TemplateID == templateID {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out, nil
}

func (m *Memory) unlink(kind, id, tpl string) {
	if kind != translate.FactEndpoint {
		return
	}
	if set := m.byTpl[tpl]; set != nil {
		delete(set, id)
		if len(set) == 0 {
			delete(m.byTpl, tpl)
		}
	}
}

// sweep removes expired entries (called when the store is full).
func (m *Memory) sweep(now time.Time) {
	for k, e := range m.entries {
		if !now.Before(e.exp) {
			delete(m.entries, k)
			m.unlink(k.kind, k.id, e.fact.TemplateID)
			m.text -= textOf(e.fact)
		}
	}
}

// textOf is the readme bytes a fact holds (MemoryOptions.MaxText).
func textOf(f translate.Fact) int {
	if f.Template == nil || f.Template.Readme == nil {
		return 0
	}
	return len(*f.Template.Readme)
}

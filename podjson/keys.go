package podjson

import (
	"encoding/binary"
	"sync"
)

// Keys: the members of the objects decoded on the hot path are
// recognised by field number (fieldKey), from key tables (keyTable) and
// the order of the previous object of their kind (keyOrder).

// keyOrders are the key orders of each kind of object a jreader has seen.
type keyOrders struct {
	podKeys, rtKeys, portKeys, gpuKeys, cpuKeys, mountKeys, persistentKeys keyOrder
}

// keyOrder is the order of keys seen in the objects of one kind: the
// longest order seen, each position holding the key of the last object
// that had one there (and the key before that, for kinds that alternate).
type keyOrder struct {
	// exp[p] is the literal expected at position p (`"key":` at 0,
	// `,"key":` after), with its field number: the key's words in
	// keyWordsTab, or noKeyLit's (0) for a key not in the table, which
	// never match. alt[p] is the literal exp[p] held before (0 if none).
	// (Indexes, not pointers: a keyOrder is copied in and out of
	// learnedKeyOrders, and the garbage collector has nothing to scan.)
	exp, alt [keyOrderLen]uint8 // indexes in keyWordsTab
	n        int                // entries of exp in use
	pos      int                // position in exp of the next member of the current object (0: none read yet)
}

// keyOrderLen bounds the keys a keyOrder remembers (v2 pods have 23).
const keyOrderLen = 32

// beginFields starts reading an object of the kind ko remembers.
func (r *jreader) beginFields(ko *keyOrder) bool {
	ko.pos = 0
	return r.beginObject()
}

// matchKey reports whether the literal v is at b[i:] (len(b)-i >= 24).
func matchKey(v *keyWords, b []byte, i int) bool {
	return load64(b, i)&v.m[0] == v.w[0] &&
		load64(b, i+8)&v.m[1] == v.w[1] &&
		load64(b, i+16)&v.m[2] == v.w[2]
}

// fieldKey advances to the next member of an object of the kind described
// by lits (lits[f] is `"key":` for field f > 0) and returns its field
// number (0 for an unknown key, whose value the caller skips); false at the
// closing brace or on an error. Start each object with beginFields.
//
// The key is first compared with the one expected at this position, as
// three words (no scan of the key, no lookup); only a key that is not
// there exactly (another key, whitespace, an escape, the end of the
// input near) is read the general way, by fieldKeySlow. Either way the
// member read is the same: a literal matches only the bytes nextKey
// would read as that key.
//
// The decoder's loops spell the fast path out before calling fieldKey, as
//
//	if v := ko.expected(); len(r.b)-r.i >= 24 && matchKey(v, r.b, r.i) {
//		f = r.takeKey(ko, v)
//	} else if f, ok = r.fieldKey(ko, lits); !ok {
//		…
//	}
//
// (fieldKey is too big to be inlined, and its call costs a third of
// the match). There the expected literal may also be the closing brace,
// learnt by ko after its keys (closeKeyLit): f is then len(lits)-1, and
// the object has ended.
func (r *jreader) fieldKey(ko *keyOrder, lits keyTable) (uint8, bool) {
	b, i := r.b, r.i
	// The closing brace first: many calls are at the end of an object
	// (the loops match their keys before calling), and no key literal
	// starts with a brace.
	if i < len(b) && b[i] == '}' {
		r.i = i + 1
		// The brace is learnt after the keys ko remembers, for the
		// inline fast paths (closeKeyLit); not in place of a key, which
		// shorter objects of a kind would make the longer ones miss.
		if pos := ko.pos; pos >= ko.n && pos < keyOrderLen {
			ko.exp[pos] = lits[len(lits)-1].v[0]
			ko.n = pos + 1
		}
		return 0, false
	}
	if v := ko.expected(); len(b)-i >= 24 && matchKey(v, b, i) {
		return r.takeKey(ko, v), true
	}
	return r.fieldKeySlow(ko, lits)
}

// expected returns the literal of the key expected at the next position
// of ko: noKeyWords, which matches nothing, past the keys it remembers.
// (Past ko.n, exp holds 0, noKeyWords' index: fieldKeySlow writes exp[p]
// only for p < n, or with n = p+1. One test, which also bounds the
// index, instead of two.)
func (ko *keyOrder) expected() *keyWords {
	if uint(ko.pos) < keyOrderLen {
		return &keyWordsTab.w[ko.exp[ko.pos]]
	}
	return &keyWordsTab.w[0]
}

// takeKey consumes the literal v, the key expected next (matched at r.i),
// and returns its field number.
func (r *jreader) takeKey(ko *keyOrder, v *keyWords) uint8 {
	r.i += v.n
	ko.pos++
	return v.f
}

// fieldKeySlow is fieldKey for a key not where the previous object had
// it (or near the end of the input, or the closing brace). Before
// reading the key, it tries the key this position held before (kinds of
// objects that alternate, as pods with a gpu and pods with a cpu) and the
// key of the next position (an object without the expected key).
func (r *jreader) fieldKeySlow(ko *keyOrder, lits keyTable) (uint8, bool) {
	b, i, pos := r.b, r.i, ko.pos
	if pos < ko.n && len(b)-i >= 24 {
		if a := ko.alt[pos]; a != 0 && matchKey(&keyWordsTab.w[a], b, i) {
			v := &keyWordsTab.w[a]
			ko.alt[pos], ko.exp[pos] = ko.exp[pos], a
			r.i = i + v.n
			ko.pos = pos + 1
			return v.f, true
		}
		// (Not at the first position, whose literals have no comma.)
		if pos > 0 && pos+1 < ko.n {
			if v := &keyWordsTab.w[ko.exp[pos+1]]; matchKey(v, b, i) {
				r.i = i + v.n
				ko.pos = pos + 2
				return v.f, true
			}
		}
	}
	first := pos == 0 // pos > 0 once a member is read
	k, ok := r.nextKey(&first)
	if !ok {
		return 0, false
	}
	f := uint8(0)
	for j := 1; j < len(lits)-1; j++ { // (the last is the closing brace)
		if l := lits[j].s; len(l) == len(k)+3 && l[1:len(l)-2] == k {
			f = uint8(j)
			break
		}
	}
	if pos < len(ko.exp) {
		v := lits[f].v[min(pos, 1)]
		if pos < ko.n && ko.exp[pos] != v {
			ko.alt[pos] = ko.exp[pos]
		}
		ko.exp[pos] = v
		ko.n = max(ko.n, pos+1)
	}
	ko.pos = pos + 1
	return f, true
}

// keyTable is a fieldKey table: the keys of one kind of object at their
// field numbers (1, 2, …; index 0 unused), then closeKeyLit.
type keyTable []keyLit

// keyLits is the keyTable of keys, numbered from 1 in order; the closing
// brace has field number len(keys)+1.
func keyLits(keys ...string) keyTable {
	t := make(keyTable, len(keys)+2)
	t[0] = noKeyLit
	for i, k := range keys {
		t[i+1] = newKeyLit(k, uint8(i+1))
	}
	t[len(keys)+1] = closeKeyLit(uint8(len(keys) + 1))
	return t
}

// closeKeyLit is the last entry of a keyTable: the closing brace of its
// objects, `}`, with the field number f past the table's keys. fieldKey
// learns it at the position where an object ended, so that the next
// object's end, at the same position, is matched on the inline fast path
// of the loops as a key is (which then return at field f) instead of
// costing a call of fieldKey. A brace can follow a value or the opening
// brace wherever a key can, and fieldKey reads it the same way (its first
// test); fieldKey itself never returns f.
func closeKeyLit(f uint8) keyLit {
	c := internKeyWords(keyWords{w: [3]uint64{'}'}, m: [3]uint64{0xff}, n: 1, f: f})
	return keyLit{s: "}", v: [2]uint8{c, c}}
}

// keyLit is a member's key as it appears in compact JSON, `"key":` (and
// `,"key":` after the first member), as little-endian words and masks, so
// that recognising it costs three loads and compares (no call).
type keyLit struct {
	s string
	v [2]uint8 // in keyWordsTab, v[0]: `"key":`, v[1]: `,"key":`
}

// keyWords are the first 24 bytes of a key's literal, as words and masks
// for the bytes in use, and its length (literals longer than 24 bytes
// never match: their keys are read the slow way).
type keyWords struct {
	w, m [3]uint64
	n    int
	f    uint8 // the key's field number (0 in noKeyLit)
}

// noKeyLit is keyTable[0]: its words match nothing (a byte masked with
// 0xff is never 0x100).
var noKeyLit = keyLit{}

// noKeyWords are keyWordsTab.w[0], words that match nothing (a byte
// masked with 0xff is never 0x100).
var noKeyWords = keyWords{w: [3]uint64{0x100}, m: [3]uint64{0xff}}

// keyWordsTab holds the keyWords of all keyTables, so that a keyOrder
// names them by a byte (indexes need no bounds check, and hold no
// pointer). Identical entries are shared: the tables of the package take
// about a hundred entries.
var keyWordsTab struct {
	mu sync.Mutex
	n  int
	w  [256]keyWords
}

// internKeyWords returns the index of kw in keyWordsTab.
func internKeyWords(kw keyWords) uint8 {
	keyWordsTab.mu.Lock()
	defer keyWordsTab.mu.Unlock()
	if keyWordsTab.n == 0 {
		keyWordsTab.w[0], keyWordsTab.n = noKeyWords, 1
	}
	for i := range keyWordsTab.n {
		if keyWordsTab.w[i] == kw {
			return uint8(i)
		}
	}
	if keyWordsTab.n == len(keyWordsTab.w) {
		panic("podjson: too many distinct object keys for keyWordsTab")
	}
	keyWordsTab.w[keyWordsTab.n] = kw
	keyWordsTab.n++
	return uint8(keyWordsTab.n - 1)
}

func newKeyLit(k string, f uint8) keyLit {
	s := `"` + k + `":`
	words := func(s string) uint8 {
		if len(s) > 24 {
			return 0
		}
		var buf [24]byte
		copy(buf[:], s)
		kw := keyWords{n: len(s), f: f}
		for j := range 3 {
			kw.w[j] = binary.LittleEndian.Uint64(buf[8*j:])
			switch n := len(s) - 8*j; {
			case n >= 8:
				kw.m[j] = ^uint64(0)
			case n > 0:
				kw.m[j] = 1<<(8*n) - 1
			}
		}
		return internKeyWords(kw)
	}
	return keyLit{s: s, v: [2]uint8{words(s), words("," + s)}}
}

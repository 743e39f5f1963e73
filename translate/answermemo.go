package translate

import "sync"

// A decoded form travels with the answer it was decoded from. The proxy
// keeps the v2 catalog answers (GET /v2/catalog/...) for a while and hands
// the same *V2Answer to every request meanwhile; without a memo each of
// those requests decoded the same body again (GET /v1/pods?includeMachine
// decoded the GPU catalog once per request). With it, the first reader of
// an answer decodes it and later readers of the same *V2Answer get what it
// decoded. An answer that is not cached lives for one request and is
// decoded as before, once; a cached one that expires is replaced by a new
// answer, decoded anew: there is nothing to invalidate.
//
// What decoded returns may be shared by concurrent requests: it is
// read-only for every reader (no sorting, appending or writing through
// its pointers); a reader that needs to change it copies it first.

// answerMemo is the decoded forms of one answer, by key. An answer has a
// few at most (the GPU catalog, and the map by id made from it), so a
// slice searched in order is enough.
type answerMemo struct {
	mu    sync.Mutex
	forms []decodedForm
}

type decodedForm struct {
	key   any // a decodedKey[T]
	value any // a T
}

// decodedKey names a decoded form: its type and a name, so that two forms
// of the same type (or two types under one name) never meet.
type decodedKey[T any] struct{ name string }

// decoded returns decode(a), keeping it on a under name so that later
// calls for a with the same name and type return the kept value instead of
// decoding again. A failure (decode's *Result) is not kept: each reader
// gets a Result of its own, as if there were no memo.
//
// The lock is not held while decode runs, so decode may itself call
// decoded on a (a map built from a decoded catalog), and a slow decode
// holds up no reader of another form. Two requests that read a new answer
// at the same instant may therefore both decode it; the first to finish
// keeps its value and both return that one, so every reader of an answer
// sees the same value.
func decoded[T any](a *V2Answer, name string, decode func(*V2Answer) (T, *Result)) (T, *Result) {
	key := decodedKey[T]{name}
	if v, ok := a.memo.get(key); ok {
		return v.(T), nil
	}
	v, r := decode(a)
	if r != nil {
		return v, r
	}
	return a.memo.keep(key, v).(T), nil
}

// decodeShared is decodeV2 kept on the answer (decoded): for answers that
// may be shared between requests, such as the catalogs. The value is
// read-only.
func decodeShared[T any](a *V2Answer, what string) (*T, *Result) {
	return decoded(a, what, func(a *V2Answer) (*T, *Result) { return decodeV2[T](a, what) })
}

func (m *answerMemo) get(key any) (any, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, f := range m.forms {
		if f.key == key {
			return f.value, true
		}
	}
	return nil, false
}

// keep stores value under key unless a value is there already, and returns
// the value stored.
func (m *answerMemo) keep(key, value any) any {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, f := range m.forms {
		if f.key == key {
			return f.value
		}
	}
	m.forms = append(m.forms, decodedForm{key, value})
	return value
}

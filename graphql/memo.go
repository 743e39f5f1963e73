package graphql

// What an operation reads or says once, however many fields ask: a catalog
// read per distinct input (a list of 40 GPU types makes one v2 call, not
// 40), a warning per distinct text.

// memoEntry is a memoized read: its value or its error.
type memoEntry[T any] struct {
	v   T
	err error
}

// memo returns what read gave for key in this operation, calling it the
// first time only (an error is kept too: a read that failed is not made
// again for every field that needs it).
func memo[T any](ec *execCtx, key string, read func() (T, error)) (T, error) {
	if e, ok := ec.memo[key].(memoEntry[T]); ok {
		return e.v, e.err
	}
	v, err := read()
	setMemo(ec, key, memoEntry[T]{v, err})
	return v, err
}

// memoize keeps v under key, as memo would have after a read that gave it.
func memoize[T any](ec *execCtx, key string, v T) { setMemo(ec, key, memoEntry[T]{v: v}) }

func setMemo(ec *execCtx, key string, e any) {
	if ec.memo == nil {
		ec.memo = make(map[string]any)
	}
	ec.memo[key] = e
}

// warnOnce adds a warning and its note (warn) the first time its text
// comes in this operation.
func (ec *execCtx) warnOnce(code, msg string) {
	if _, done := ec.memo["warned\x00"+msg]; done {
		return
	}
	setMemo(ec, "warned\x00"+msg, true)
	ec.warn(code, msg)
}

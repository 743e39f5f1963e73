package podjson

import (
	"math/bits"
	"unicode/utf8"
	"unsafe"
)

// dockerStartCmd as the encoders write it: v2 args split into words as
// SplitArgs splits them (H-args, args.go) and written as AppendString
// writes them, straight into the answer, without a string per word.

// appendPodArgs appends dockerStartCmd as FillV1Pod sets it (H-args: args
// split into words, null when they cannot be split), without a slice of
// words: in one pass (appendPodArgsOnePass), or, for the rare args that
// one pass cannot write (invalid UTF-8, a backslash before a non-ASCII
// byte), word by word (appendQuotedPodArgs).
func appendPodArgs(w *jw, args string) []byte {
	mark, first := len(w.b), w.first
	if b, ok := appendPodArgsOnePass(w, args); ok {
		return b
	}
	w.b, w.first = w.b[:mark], first
	return appendQuotedPodArgs(w, args)
}

// jsonPlainASCII marks the ASCII bytes that stand for themselves in a JSON
// string (AppendString copies them as they are).
var jsonPlainASCII = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendEscASCII appends the ASCII byte c, which does not stand for itself
// in a JSON string, escaped as AppendString escapes it.
func appendEscASCII(b []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(b, '\\', c)
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'u', '0', '0', hexDigit[c>>4], hexDigit[c&0xf])
}

// The runs that appendPodArgsOnePass copies at once end at the bytes that
// do not stand for themselves in a JSON string (control characters, '"',
// '\\', non-ASCII) and at: outside quotes, whitespace and quotes
// (lo argWordLo, q the single quote); in single quotes, the quote
// (argQuoteLo, the single quote); in double quotes, nothing more
// (argQuoteLo, q '"').
const (
	argWordLo  = 0x21 // bytes below end a run: controls and ' '
	argQuoteLo = 0x20 // controls
)

// argStops marks (in the high bit of each byte; exactly for the lowest
// one) the bytes of x that end a run of argRunEnd(lo, q): those below lo,
// non-ASCII ones, '"', '\\' and q. (The classic (y-k) tests, x or-ed in
// for the non-ASCII bytes: a borrow only marks a byte above a marked one.)
func argStops(x, lo, q uint64) uint64 {
	dq := x ^ (swarOnes * '"')
	bs := x ^ (swarOnes * '\\')
	qq := x ^ (swarOnes * q)
	return ((x - swarOnes*lo) | (dq - swarOnes) | (bs - swarOnes) | (qq - swarOnes) | x) & swarHighs
}

// argRunEnd returns the index of the first byte at or after i that ends a
// run (argStops(lo, q)), or len(s): eight bytes at a time, the last eight
// overlapping the ones already read (those shifted out, and 'a's, which
// end nothing, shifted in).
func argRunEnd(s string, i int, lo, q uint64) int {
	// unsafe: a read-only byte view of s, never written through; FuzzArgRunEnd.
	w := unsafe.Slice(unsafe.StringData(s), len(s))
	for ; i+8 <= len(w); i += 8 {
		if m := argStops(load64(w, i), lo, q); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	if i == len(w) {
		return i
	}
	if k := len(w) - 8; k >= 0 {
		sh := uint(i-k) * 8 // 8..56
		x := load64(w, k)>>sh | (swarOnes*'a')<<(64-sh)
		if m := argStops(x, lo, q); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		return len(w)
	}
	for ; i < len(w); i++ {
		if c := uint64(w[i]); c < lo || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == q {
			break
		}
	}
	return i
}

// appendArgRun appends the run of bytes at s[i:] that argStops(lo, q)
// does not end, and returns the index after it: eight bytes at a time,
// each eight stored at once into the spare capacity of b, of which only
// the run is kept (the last eight of s overlapping the ones already read,
// as in argRunEnd).
func appendArgRun(b []byte, s string, i int, lo, q uint64) ([]byte, int) {
	// unsafe: a read-only byte view of s, never written through; FuzzArgRunEnd, FuzzAppendPodArgs.
	w := unsafe.Slice(unsafe.StringData(s), len(s))
	n := len(b)
	for len(w) >= 8 && i < len(w) && cap(b)-n >= 8 {
		var x uint64
		if i+8 <= len(w) {
			x = load64(w, i)
		} else {
			sh := uint(i-(len(w)-8)) * 8 // 8..56
			x = load64(w, len(w)-8)>>sh | (swarOnes*'a')<<(64-sh)
		}
		store64(b, n, x) // within cap(b), checked by the loop
		if m := argStops(x, lo, q); m != 0 {
			k := bits.TrailingZeros64(m) >> 3
			return b[:n+k], i + k
		}
		if i+8 >= len(w) {
			return b[:n+len(w)-i], len(w)
		}
		n += 8
		i += 8
	}
	j := argRunEnd(s, i, lo, q)
	return append(b[:n], s[i:j]...), j
}

// appendArgRune appends the non-ASCII UTF-8 sequence at s[i:] as
// AppendString writes it, and returns the index after it; ok is false
// when it is not valid UTF-8. (Valid and every byte non-ASCII, it lies in
// one run of args, and everything before it in its word was written whole
// runes: it is the rune AppendString decodes in the word.)
func appendArgRune(b []byte, s string, i int) (_ []byte, next int, ok bool) {
	r, size := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && size == 1 {
		return b, i, false
	}
	if r == '\u2028' || r == '\u2029' {
		return append(b, '\\', 'u', '2', '0', '2', hexDigit[r&0xf]), i + size, true
	}
	return append(b, s[i:i+size]...), i + size, true
}

// skipArgSpace returns the index of the first byte at or after i that is
// neither whitespace nor in a backslash-newline (which disappears without
// starting a word), or len(s).
func skipArgSpace(s string, i int) int {
	for i < len(s) {
		if isArgSpace(s[i]) {
			i++
		} else if s[i] == '\\' && i+1 < len(s) && s[i+1] == '\n' {
			i += 2
		} else {
			break
		}
	}
	return i
}

// appendPodArgsOnePass is appendQuotedPodArgs in one pass: the words are
// split as SplitArgs splits them and written as AppendString writes
// them, straight into the answer, runs of bytes that stand for themselves
// at once. ok is false, and w is to be restored, for args with invalid
// UTF-8 or a backslash before a non-ASCII byte outside quotes
// (AppendString's handling of those depends on a whole word, which
// quotes may cut into pieces).
func appendPodArgsOnePass(w *jw, s string) (_ []byte, ok bool) {
	mark, first := len(w.b), w.first
	w.key("dockerStartCmd")
	i := skipArgSpace(s, 0)
	if i == len(s) {
		w.b = append(w.b, '[', ']')
		return w.b, true
	}
	b := append(w.b, '[', '"')
	for {
		// In a word, at s[i]. A run of plain bytes first: up to eight
		// (most words are shorter) stored at once into the spare
		// capacity of b, only the run kept.
		if i+8 <= len(s) && cap(b)-len(b) >= 8 {
			// unsafe: a read-only byte view of s, read within it (i+8 <= len(s)); FuzzAppendPodArgs.
			x := load64(unsafe.Slice(unsafe.StringData(s), len(s)), i)
			n := len(b)
			store64(b, n, x) // within cap(b), checked above
			m := argStops(x, argWordLo, '\'')
			if m == 0 {
				b = b[:n+8]
				i += 8
				continue
			}
			k := bits.TrailingZeros64(m) >> 3
			b = b[:n+k]
			i += k
		} else if b, i = appendArgRun(b, s, i, argWordLo, '\''); i == len(s) {
			w.b = append(b, '"', ']')
			return w.b, true
		}
		switch c := s[i]; {
		case isArgSpace(c):
			if i = skipArgSpace(s, i+1); i == len(s) {
				w.b = append(b, '"', ']')
				return w.b, true
			}
			b = append(b, '"', ',', '"')
		case c == '\'':
			for i++; ; {
				if b, i = appendArgRun(b, s, i, argQuoteLo, '\''); i == len(s) {
					return nullPodArgs(w, b, mark, first), true
				}
				d := s[i]
				if d == '\'' {
					i++
					break
				}
				if d >= utf8.RuneSelf {
					if b, i, ok = appendArgRune(b, s, i); !ok {
						return nil, false
					}
					continue
				}
				b = appendEscASCII(b, d)
				i++
			}
		case c == '"':
			// '\\' keeps $ ` " \\ and drops a newline; anything else is
			// kept as it is.
			for i++; ; {
				if b, i = appendArgRun(b, s, i, argQuoteLo, '"'); i == len(s) {
					return nullPodArgs(w, b, mark, first), true
				}
				d := s[i]
				if d == '"' {
					i++
					break
				}
				if d == '\\' && i+1 < len(s) {
					switch e := s[i+1]; e {
					case '$', '`', '"', '\\':
						b = appendJSONByte(b, e)
						i += 2
						continue
					case '\n':
						i += 2
						continue
					}
				}
				if d >= utf8.RuneSelf {
					if b, i, ok = appendArgRune(b, s, i); !ok {
						return nil, false
					}
					continue
				}
				b = appendEscASCII(b, d)
				i++
			}
		case c == '\\':
			if i+1 == len(s) { // a final lone backslash is literal
				w.b = append(b, '\\', '\\', '"', ']')
				return w.b, true
			}
			e := s[i+1]
			if e >= utf8.RuneSelf {
				return nil, false
			}
			if e != '\n' { // backslash-newline disappears
				b = appendJSONByte(b, e)
			}
			i += 2
		case c >= utf8.RuneSelf:
			if b, i, ok = appendArgRune(b, s, i); !ok {
				return nil, false
			}
		default: // a control character that is not whitespace
			b = appendEscASCII(b, c)
			i++
		}
		if i == len(s) {
			w.b = append(b, '"', ']')
			return w.b, true
		}
	}
}

// nullPodArgs writes dockerStartCmd as null in place of what was written
// of it since mark (b, with w.first as it was then): args that cannot be
// split (an unterminated quote), as FillV1Pod leaves them.
func nullPodArgs(w *jw, b []byte, mark int, first bool) []byte {
	w.b, w.first = b[:mark], first
	w.null("dockerStartCmd")
	return w.b
}

// appendJSONByte appends the ASCII byte c as AppendString writes it.
func appendJSONByte(b []byte, c byte) []byte {
	if jsonPlainASCII[c] {
		return append(b, c)
	}
	return appendEscASCII(b, c)
}

// appendQuotedPodArgs is appendPodArgs for any args (it serves those with
// non-ASCII bytes, which are rare): the words are split (SplitArgs)
// straight into the answer, without a string per word; on an unterminated
// quote dockerStartCmd is null, as FillV1Pod leaves it.
func appendQuotedPodArgs(w *jw, args string) []byte {
	mark, first := len(w.b), w.first
	w.key("dockerStartCmd")
	w.b = append(w.b, '[')
	var buf [256]byte
	word := buf[:0]
	it := argWords{s: args}
	for n := 0; ; n++ {
		var ok bool
		var err error
		word, ok, err = it.next(word[:0])
		if err != nil {
			return nullPodArgs(w, w.b, mark, first)
		}
		if !ok {
			return append(w.b, ']')
		}
		if n > 0 {
			w.b = append(w.b, ',')
		}
		if len(word) == 0 {
			w.b = append(w.b, '"', '"')
			continue
		}
		// unsafe: a string view of word, which AppendString copies before word is reused; FuzzAppendPodArgs, FuzzV1PodArgs.
		w.b = AppendString(w.b, unsafe.String(&word[0], len(word)))
	}
}

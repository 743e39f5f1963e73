package podjson

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxJSONDepth is how deeply a v1 request body may nest objects and arrays
// (CheckJSON). The deepest v1 body (a pod's env map inside the body
// object) needs 2; anything far beyond is hostile or a mistake, and is
// refused before it costs the decoder any work.
const MaxJSONDepth = 32

// CheckJSON refuses a v1 request body, with an error whose message names
// the problem for the client, that encoding/json would otherwise accept
// silently or at great cost: invalid UTF-8 (json replaces it with
// U+FFFD), nesting deeper than MaxJSONDepth (json allows 10000 levels),
// lone UTF-16 surrogates in \u escapes (json replaces them with U+FFFD),
// and duplicate object keys at any level (json keeps the last one: the
// input is ambiguous, so it is rejected naming the key). Syntax errors
// are left to the decoder, which reports them with an offset: CheckJSON
// returns nil for them.
func CheckJSON(body []byte) error {
	if msg := checkJSON(body); msg != "" {
		return errors.New(msg)
	}
	return nil
}

// checkJSON is CheckJSON's message, or "".
func checkJSON(body []byte) string {
	if !utf8.Valid(body) {
		off := 0
		for off < len(body) {
			r, n := utf8.DecodeRune(body[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		return fmt.Sprintf("request body is not valid UTF-8 (at byte %d)", off)
	}
	// Depth first, with a cheap scan, so that a deeply nested body is
	// refused before any decoder walks it.
	depth, inStr, esc := 0, false, false
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case inStr:
			switch {
			case esc:
				esc = false
				if c == 'u' {
					skip, bad := surrogateEscape(body, i+1)
					if bad {
						return fmt.Sprintf("request body: a \\u escape at byte %d is half of a UTF-16 surrogate pair (not a character): send the character itself or both halves", i-1)
					}
					i += skip
				}
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '{' || c == '[':
			depth++
			if depth > MaxJSONDepth {
				return fmt.Sprintf("request body: JSON nested deeper than %d levels", MaxJSONDepth)
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return duplicateKey(body)
}

// duplicateKey names the first key that appears twice in one object of
// body, at any level, or returns "" (also when body is not valid JSON: its
// syntax error is the decoder's to report, with an offset). Keys are
// compared decoded, as encoding/json compares them ("ab" and "a\u0062"
// are the same key). Every top-level value of body is looked at, as
// encoding/json's token stream would. It walks body with the pod
// decoder's scanner (scanner.go), which allocates nothing for plain keys;
// it replaced a walk over encoding/json's Token, which took a fifth of a
// pod create's handler time (TestDuplicateKeyAgreesWithTheTokenWalk,
// FuzzCheckJSONInput).
func duplicateKey(body []byte) string {
	key, nested, found := findDuplicateKey(body)
	if !found {
		return ""
	}
	where := ""
	if nested {
		where = " (in a nested object)"
	}
	return fmt.Sprintf("request body: duplicate key %q%s: send each field once", key, where)
}

// DuplicateKey is the first key that appears twice in one object of body,
// at any level, as duplicateKey finds it (ok false: none, or body is not
// JSON), for a caller that words its own refusal (the GraphQL door's
// request body).
func DuplicateKey(body []byte) (key string, ok bool) {
	key, _, ok = findDuplicateKey(body)
	return key, ok
}

func findDuplicateKey(body []byte) (key string, nested, found bool) {
	r := newJReader(body)
	for r.peek() != 0 && r.err == nil {
		if key, nested, found = r.duplicateKeyIn(false); found {
			return key, nested, true
		}
	}
	return "", false, false
}

// duplicateKeyIn walks one value; nested is true below the top level. It
// returns the first duplicate key and whether it was below the top level.
func (r *jreader) duplicateKeyIn(nested bool) (string, bool, bool) {
	switch r.peek() {
	case '{':
		r.i++
		var small [16]string
		keys := small[:0]
		var many map[string]struct{}
		first := true
		for k, ok := r.nextKey(&first); ok; k, ok = r.nextKey(&first) {
			k = asDecoded(k)
			dup := false
			if many != nil {
				_, dup = many[k]
				many[k] = struct{}{}
			} else {
				for _, seen := range keys {
					if seen == k {
						dup = true
						break
					}
				}
				if keys = append(keys, k); len(keys) > len(small) {
					many = make(map[string]struct{}, 2*len(keys))
					for _, seen := range keys {
						many[seen] = struct{}{}
					}
				}
			}
			if dup {
				return k, nested, true
			}
			if key, in, found := r.duplicateKeyIn(true); found {
				return key, in, true
			}
		}
	case '[':
		r.i++
		first := true
		for r.nextElem(&first) {
			if key, in, found := r.duplicateKeyIn(true); found {
				return key, in, true
			}
		}
	default:
		r.skip()
	}
	return "", false, false
}

// asDecoded is key as encoding/json decodes it: each byte of invalid
// UTF-8 becomes U+FFFD (so "\xda" and "\xdb" are one key to it). Valid
// keys, all that CheckJSON lets reach the walk, are returned as they are.
func asDecoded(key string) string {
	if utf8.ValidString(key) {
		return key
	}
	var b strings.Builder
	for i := 0; i < len(key); {
		r, size := utf8.DecodeRuneInString(key[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(key[i : i+size])
		}
		i += size
	}
	return b.String()
}

// surrogateEscape looks at the four hex digits of a \u escape starting at
// body[j]. A high surrogate followed by an escaped low one is a valid pair:
// skip is how many bytes the loop may pass over (the first escape's digits
// and the whole second escape). A lone surrogate, which encoding/json
// would silently turn into U+FFFD, is bad. Anything that is not four hex
// digits is left to the decoder's syntax error.
func surrogateEscape(body []byte, j int) (skip int, bad bool) {
	r, ok := hex4At(body, j)
	if !ok || r < 0xD800 || r > 0xDFFF {
		return 0, false
	}
	if r >= 0xDC00 {
		return 0, true // a low half first
	}
	if k := j + 4; k+6 <= len(body) && body[k] == '\\' && body[k+1] == 'u' {
		if r2, ok := hex4At(body, k+2); ok && r2 >= 0xDC00 && r2 <= 0xDFFF {
			return 4 + 6, false
		}
	}
	return 0, true
}

// hex4At parses four hex digits at body[j].
func hex4At(body []byte, j int) (rune, bool) {
	if j+4 > len(body) {
		return 0, false
	}
	var r rune
	for _, c := range body[j : j+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

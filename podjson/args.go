package podjson

import (
	"errors"
	"strings"
)

// H-args (docs/design.md §6.4): v1 dockerStartCmd is an array of strings, v2
// args is one string. The gateway writes args with JoinArgs and reads them
// back with SplitArgs; SplitArgs(JoinArgs(x)) == x for every x.

// JoinArgs turns a v1 dockerStartCmd array into a v2 args string: the
// elements joined by single spaces, each element that is empty or holds
// anything but letters, digits and @%+=:,./_- (whitespace, quotes,
// backslashes, shell metacharacters, non-ASCII), or that is a first
// element of the form NAME=value, is POSIX-single-quoted. An
// embedded single quote closes the quoting, is written backslash-escaped and
// reopens it:
//
//	[]string{"it's", "my pod", "-v"}  →  'it'\''s' 'my pod' -v
//
// nil and [] give "".
func JoinArgs(args []string) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		// A first word NAME=value is quoted too: a shell would take it
		// for a variable assignment.
		if a != "" && isSafeArg(a) && !(i == 0 && isAssignment(a)) {
			b.WriteString(a)
			continue
		}
		b.WriteByte('\'')
		b.WriteString(strings.ReplaceAll(a, "'", `'\''`))
		b.WriteByte('\'')
	}
	return b.String()
}

// isSafeArg reports whether s needs no quoting in any POSIX shell.
func isSafeArg(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("@%+=:,./_-", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// isAssignment reports whether s has the form NAME=value of a shell
// variable assignment.
func isAssignment(s string) bool {
	eq := strings.IndexByte(s, '=')
	if eq <= 0 {
		return false
	}
	for i := 0; i < eq; i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// isArgSpace reports whether c separates words: ASCII whitespace.
func isArgSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\v', '\f':
		return true
	}
	return false
}

// Errors of SplitArgs.
var (
	ErrUnterminatedSingleQuote = errors.New("args: unterminated single quote")
	ErrUnterminatedDoubleQuote = errors.New("args: unterminated double quote")
)

// SplitArgs turns a v2 args string into a v1 dockerStartCmd array with
// POSIX shell word splitting: words are separated by ASCII whitespace;
// '...' keeps everything literally; "..." keeps everything but a backslash
// before $ ` " \ or a newline (backslash-newline disappears); outside
// quotes a backslash keeps the next character literally (backslash-newline
// disappears; a final lone backslash is literal). Nothing is expanded:
// $, `, *, ~, # and operators are ordinary characters. "" and a
// whitespace-only string give an empty, non-nil slice. An unterminated
// quote is an error.
func SplitArgs(s string) ([]string, error) {
	words := []string{}
	var buf [128]byte
	w := buf[:0]
	it := argWords{s: s}
	for {
		var ok bool
		var err error
		w, ok, err = it.next(w[:0])
		if err != nil {
			return nil, err
		}
		if !ok {
			return words, nil
		}
		words = append(words, string(w))
	}
}

// argWords splits s as SplitArgs does, one word per call of next.
type argWords struct {
	s string
	i int
}

// argPlainByte marks the bytes that stand for themselves outside quotes:
// all but ASCII whitespace, quotes and the backslash.
var argPlainByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = !isArgSpace(byte(c)) && c != '\'' && c != '"' && c != '\\'
	}
	return t
}()

// next appends the next word to cur and returns it, ok=false after the
// last one, or the error of an unterminated quote. Given the previous
// word[:0], it allocates nothing while the words fit.
func (a *argWords) next(cur []byte) (word []byte, ok bool, err error) {
	s := a.s
	inWord := false
	for a.i < len(s) {
		i := a.i
		c := s[i]
		switch {
		case argPlainByte[c]:
			// A run of plain bytes at once.
			j := i + 1
			for j < len(s) && argPlainByte[s[j]] {
				j++
			}
			cur = append(cur, s[i:j]...)
			a.i = j
			inWord = true
			continue
		case isArgSpace(c):
			if inWord {
				a.i++
				return cur, true, nil
			}
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, false, ErrUnterminatedSingleQuote
			}
			cur = append(cur, s[i+1:i+1+end]...)
			a.i += end + 1
			inWord = true
		case c == '"':
			inWord = true
			closed := false
			for i++; i < len(s); i++ {
				// A run without quotes or backslashes at once.
				j := i
				for j < len(s) && s[j] != '"' && s[j] != '\\' {
					j++
				}
				cur = append(cur, s[i:j]...)
				if i = j; i == len(s) {
					break
				}
				d := s[i]
				if d == '"' {
					closed = true
					break
				}
				if i+1 < len(s) {
					switch s[i+1] {
					case '$', '`', '"', '\\':
						cur = append(cur, s[i+1])
						i++
						continue
					case '\n':
						i++
						continue
					}
				}
				cur = append(cur, d)
			}
			if !closed {
				return nil, false, ErrUnterminatedDoubleQuote
			}
			a.i = i
		default: // c == '\\'
			if i+1 >= len(s) {
				cur = append(cur, '\\')
				a.i++
				return cur, true, nil
			}
			a.i++
			if s[a.i] == '\n' {
				a.i++
				continue // line continuation
			}
			cur = append(cur, s[a.i])
			inWord = true
		}
		a.i++
	}
	return cur, inWord, nil
}

package proxy

import (
	"strings"
	"unicode/utf8"
)

// Header values are plain ASCII (RFC 9110 §5.5: other bytes are opaque, and
// clients show them as mojibake). The gateway's messages are Unicode —
// /usage and the JSON bodies keep them so — and its X-Compat-* headers are
// their ASCII transliteration: the punctuation of asciiPunctuation becomes
// its ASCII spelling, any other non-ASCII rune one "?", and control
// characters a space, so that a value stays on one line.

// asciiPunctuation is the one table of transliterations.
var asciiPunctuation = map[rune]string{
	'…':      "...",
	'—':      "-", // em dash
	'–':      "-", // en dash
	'‐':      "-", // hyphen
	'‑':      "-", // non-breaking hyphen
	'−':      "-", // minus sign
	'“':      `"`,
	'”':      `"`,
	'„':      `"`,
	'‘':      "'",
	'’':      "'",
	'‚':      "'",
	'«':      `"`,
	'»':      `"`,
	'×':      "x",
	'→':      "->",
	'←':      "<-",
	'⇒':      "=>",
	'≤':      "<=",
	'≥':      ">=",
	'•':      "*",
	'\u00a0': " ", // no-break space
	'\u202f': " ", // narrow no-break space
}

// asciiHeaderValue returns s as one line of printable ASCII.
func asciiHeaderValue(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				c = ' '
			}
			b.WriteByte(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if t, ok := asciiPunctuation[r]; ok {
			b.WriteString(t)
			continue
		}
		b.WriteByte('?') // one per rune; one per byte of invalid UTF-8
	}
	return b.String()
}

package podjson

import (
	"math/bits"
	"strconv"
)

// Numbers: validated as encoding/json does (skipNum), read as integers
// (integer) and floats (float), each with a fast path for the short
// numbers pods are made of and a general one (integerToken, floatToken).

// intOrNull reads an integer; null reads as 0.
func (r *jreader) intOrNull() int {
	if r.null() {
		return 0
	}
	return r.integer()
}

// number scans a number token and returns it.
func (r *jreader) number() string {
	r.ws()
	start := r.i
	i := skipNum(r.b, start)
	if i < 0 {
		// The message says which part is wrong; the byte is the token's
		// first either way.
		j := start
		if j < len(r.b) && r.b[j] == '-' {
			j++
		}
		if j < len(r.b) && r.b[j] >= '0' && r.b[j] <= '9' {
			r.fail("invalid number")
		} else {
			r.fail("expected a number")
		}
		return ""
	}
	r.i = i
	return r.s[start:i]
}

// integer reads an integer that fits an int (as encoding/json into int:
// no fraction, no exponent).
//
// Fast path: compact JSON, 1 to 7 digits without a sign, with 8 bytes of
// input from the first digit, read as one word (SWAR) and not digit by
// digit: the digits are the bytes below the lowest byte that is not a
// digit, followed by something that is neither a fraction nor an exponent
// (what comes after the number is checked by the caller, as integerToken
// leaves it). A leading 0 is the whole number, as integerToken reads it
// ("01" is 0, then the 1 left for the caller). Anything else is
// integerToken's.
func (r *jreader) integer() int {
	if b, i := r.b, r.i; len(b)-i >= 8 {
		x := load64(b, i)
		t := x ^ swarD.zeros // a digit's byte is its value, 0 to 9
		// The high bit of each byte of t above 9 (exact for the lowest
		// one: no carry reaches it from the digits below it).
		m := (t + swarD.above9 | t) & swarK.highs
		if byte(t) == 0 {
			m |= 0x8000 // a leading 0 is one digit
		}
		// The lowest marked byte's high bit: 8*digits + 7. (Bit 63
		// spares the test of m == 0: 8 digits, the last one taken
		// for what follows the number, go to integerToken.)
		if hb := uint(bits.TrailingZeros64(m | 1<<63)); hb >= 15 && !numberCont[byte(x>>(hb&56))] {
			r.i = i + int(hb>>3)
			// The digits at the top of the word (the first one
			// most significant, as in a number written the other
			// way round), then added up in pairs, fours, eights.
			v := t << ((64 - hb&56) & 63)
			v = v * (10<<8 + 1) >> 8 & swarD.pairs
			v = v * (100<<16 + 1) >> 16 & swarD.quads
			return int(v * swarD.k10000 >> 32)
		}
	}
	return r.integerToken()
}

// numberCont marks the bytes that continue a number: digits, and the
// start of a fraction or an exponent.
var numberCont = [256]bool{
	'0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true,
	'.': true, 'e': true, 'E': true,
}

// swarD holds integer's constants (read from memory, as swarK's): zeros
// is '0' in each byte; above9 carries a byte's value above 9 into its
// high bit; pairs, quads and k10000 add up the digits of a word (each
// step's products stay within their lanes: 99, 9999).
var swarD = struct{ zeros, above9, pairs, quads, k10000 uint64 }{
	swarOnes * '0', swarOnes * (0x80 - 10), 0x00ff00ff00ff00ff, 0x0000ffff0000ffff, 10000<<32 + 1,
}

// integerToken is integer for any number token.
func (r *jreader) integerToken() int {
	tok := r.number()
	if r.err != nil {
		return 0
	}
	if len(tok) <= 18 {
		// Fast path: at most 18 digits cannot overflow an int64.
		neg := tok[0] == '-'
		digits := tok
		if neg {
			digits = tok[1:]
		}
		var n int64
		for i := 0; i < len(digits); i++ {
			c := digits[i]
			if c < '0' || c > '9' {
				r.fail("expected an integer")
				return 0
			}
			n = n*10 + int64(c-'0')
		}
		if neg {
			n = -n
		}
		if n != int64(int(n)) {
			r.fail("expected an integer")
			return 0
		}
		return int(n)
	}
	n, err := strconv.ParseInt(tok, 10, 64)
	if err != nil || n != int64(int(n)) {
		r.fail("expected an integer")
		return 0
	}
	return int(n)
}

func (r *jreader) float() float64 {
	// Fast path: compact JSON, a short decimal without sign or exponent
	// (prices), followed by something that cannot continue a number:
	// parseShortDecimal's value, read in the same pass as its digits
	// (not number's, then parseShortDecimal's). Anything else is
	// floatToken's.
	b, i := r.b, r.i
	if uint(i) < uint(len(b)) && b[i]-'0' < 10 {
		m, digits, d := uint64(0), 0, 0
		j := i
		if b[j] == '0' {
			j++
			digits = 1
		} else {
			for j < len(b) && b[j]-'0' < 10 {
				m = m*10 + uint64(b[j]-'0')
				j++
			}
			digits = j - i
		}
		if j < len(b) && b[j] == '.' {
			j++
			k := j
			for j < len(b) && b[j]-'0' < 10 {
				m = m*10 + uint64(b[j]-'0')
				j++
			}
			d = j - k
			digits += d
		}
		if j < len(b) && b[j] != 'e' && b[j] != 'E' && (d > 0 || b[j-1] != '.') && digits <= 15 {
			r.i = j
			f := float64(m)
			if d > 0 {
				f /= float64pow10[d]
			}
			return f
		}
	}
	return r.floatToken()
}

// floatToken is float for any number token.
func (r *jreader) floatToken() float64 {
	tok := r.number()
	if r.err != nil {
		return 0
	}
	if f, ok := parseShortDecimal(tok); ok {
		return f
	}
	f, err := strconv.ParseFloat(tok, 64)
	if err != nil {
		r.fail("number out of range")
		return 0
	}
	return f
}

// parseShortDecimal reads a number token without an exponent and with at
// most 15 digits (prices) as strconv.ParseFloat does: its digits m and
// the 10^d of its d decimals are exact float64s, so m/10^d is the
// correctly rounded value.
func parseShortDecimal(tok string) (float64, bool) {
	neg := tok[0] == '-'
	i := 0
	if neg {
		i = 1
	}
	var m uint64
	digits, d := 0, -1
	for ; i < len(tok); i++ {
		c := tok[i]
		switch {
		case c >= '0' && c <= '9':
			m = m*10 + uint64(c-'0')
			digits++
			if d >= 0 {
				d++
			}
		case c == '.':
			d = 0
		default:
			return 0, false // an exponent
		}
	}
	if digits > 15 {
		return 0, false
	}
	f := float64(m)
	if d > 0 {
		f /= float64pow10[d]
	}
	if neg {
		f = -f
	}
	return f, true
}

// skipNum skips a valid number at b[i] (number and skipFast):
// the index after it, or -1.
func skipNum(b []byte, i int) int {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		i++
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			return -1
		}
	}
	return i
}

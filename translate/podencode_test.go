package translate

import (
	"math"
	"strconv"
	"testing"
)

// FuzzAppendInt: appendInt (0..99 inline) is strconv.AppendInt, after
// whatever the buffer holds.
func FuzzAppendInt(f *testing.F) {
	for _, v := range []int{0, 1, 9, 10, 11, 42, 99, 100, 101, 999, 10000, -1, -9, -10, -99, -100, math.MaxInt, math.MinInt} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v int) {
		if got, want := string(appendInt([]byte("x:"), v)), "x:"+strconv.Itoa(v); got != want {
			t.Fatalf("appendInt(%d) = %q, want %q", v, got, want)
		}
	})
}

func TestAppendInt(t *testing.T) {
	for v := -1000; v <= 1000; v++ {
		if got, want := string(appendInt(nil, v)), strconv.Itoa(v); got != want {
			t.Fatalf("appendInt(%d) = %q, want %q", v, got, want)
		}
	}
}

package podjson

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"
)

// FuzzAppendInt: appendInt (0..99 inline, up to nine digits written in
// place) is strconv.AppendInt, after whatever the buffer holds.
func FuzzAppendInt(f *testing.F) {
	for _, v := range []int{0, 1, 9, 10, 11, 42, 99, 100, 101, 999, 1000, 9999, 10000, 65535, 99999, 100000, 123456789, 999999999, 1000000000, 4294967295, -1, -9, -10, -99, -100, math.MaxInt, math.MinInt} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v int) {
		if got, want := string(appendInt([]byte("x:"), v)), "x:"+strconv.Itoa(v); got != want {
			t.Fatalf("appendInt(%d) = %q, want %q", v, got, want)
		}
	})
}

func TestAppendInt(t *testing.T) {
	for v := -1000; v <= 200000; v++ {
		if got, want := string(appendInt([]byte("x:"), v)), "x:"+strconv.Itoa(v); got != want {
			t.Fatalf("appendInt(%d) = %q, want %q", v, got, want)
		}
	}
}

// FuzzV1PodArgs: a pod filled by FillV1Pod (args kept raw, written by
// appendPodArgs) encodes as the same pod with its args split (V1PodFrom,
// SplitPodArgs then jw.strs), for any args.
func FuzzV1PodArgs(f *testing.F) {
	for _, seed := range []string{"", " ", "sleep infinity", `'a b' "c\"d"`, `echo "unterminated`, `'x`, `a\`, "caf\xc3\xa9 \xff",
		`sh -c "echo café \\"quoted\\" && sleep infinity"`, "a\\é", "'\u2028' \"\\\n\" \x01"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, args string) {
		p := &V2Pod{ID: "p", Name: "n", Image: "i", Args: args, Env: jsonEmptyObject, Ports: jsonEmptyArray}
		var raw V1Pod
		FillV1Pod(&raw, p)
		split := V1PodFrom(p)
		if raw.DockerStartCmd != nil || !raw.argsRaw || split.argsRaw {
			t.Fatalf("fillV1Pod/v1PodFrom args: %v %v %v", raw.DockerStartCmd, raw.argsRaw, split.argsRaw)
		}
		if got, want := string(AppendV1Pod(nil, &raw)), string(AppendV1Pod(nil, &split)); got != want {
			t.Fatalf("args %q:\nraw   %s\nsplit %s", args, got, want)
		}
	})
}

// TestJSONFloatHalves: numbers whose scaled values are half-integers
// (where RoundToEven and Round part) are written as encoding/json writes
// them.
func TestJSONFloatHalves(t *testing.T) {
	for d := 0; d <= 9; d++ {
		for k := 0; k < 3000; k++ {
			for _, f := range []float64{(float64(k) + 0.5) / float64pow10[d], float64(2*k+1) / 2 / float64pow10[d], (float64(k) + 0.5) * 1e9 / float64pow10[d]} {
				want, _ := json.Marshal(f)
				if got := AppendFloat(nil, f); string(got) != string(want) {
					t.Fatalf("appendJSONFloat(%v) = %s, encoding/json %s", f, got, want)
				}
			}
		}
	}
}

func TestAppendJSONString(t *testing.T) {
	for _, s := range append(nastyStrings, "a\"b\\c\x7f\u00ff\U0001F600", "12345678\"12345678", "1234567\x00",
		// The fast path's edges: plain lengths around the 8-byte word, a
		// special byte in the overlapping last word only, or in the first.
		"", "a", "1234567", "12345678", "123456789", "123456789012345", "1234567890123456", "12345678901234567",
		"123456789\"", "12345678901234\n", "\"23456789", "1234567\u00e9", "123456789\u2028", "123456789\xff") {
		checkAppendJSONString(t, s)
	}
}

// checkAppendJSONString: AppendString(s) is valid JSON that decodes as
// encoding/json's encoding of s does.
func checkAppendJSONString(t *testing.T, s string) {
	t.Helper()
	b := AppendString([]byte("x"), s)[1:]
	var got string
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%q → invalid %s", s, b)
	}
	want, _ := json.Marshal(s)
	var w string
	_ = json.Unmarshal(want, &w)
	if got != w {
		t.Errorf("%q → %q, want %q", s, got, w)
	}
	// Byte for byte the general loop (appendJSONStringFrom), which the
	// fast paths bypass, whatever room b has after its contents.
	want = appendJSONStringFrom([]byte{'x', '"'}, s, 0)
	for _, spare := range []int{0, 1, len(s) + 1, len(s) + 2, len(s) + 64} {
		b := append(make([]byte, 0, 1+spare), 'x')
		if got := AppendString(b, s); string(got) != string(want) {
			t.Fatalf("%q with %d spare bytes → %q, want %q", s, spare, got, want)
		}
	}
}

func FuzzAppendJSONString(f *testing.F) {
	for _, s := range append(nastyStrings, "12345678\"12345678", "123456789\u2028") {
		f.Add(s)
	}
	f.Fuzz(checkAppendJSONString)
}

package translate

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

// FuzzV1PodArgs: a pod filled by fillV1Pod (args kept raw, written by
// appendPodArgs) encodes as the same pod with its args split (v1PodFrom,
// splitPodArgs then jw.strs), for any args.
func FuzzV1PodArgs(f *testing.F) {
	for _, seed := range []string{"", " ", "sleep infinity", `'a b' "c\"d"`, `echo "unterminated`, `'x`, `a\`, "caf\xc3\xa9 \xff",
		`sh -c "echo café \\"quoted\\" && sleep infinity"`, "a\\é", "'\u2028' \"\\\n\" \x01"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, args string) {
		p := &v2Pod{ID: "p", Name: "n", Image: "i", Args: args, Env: jsonEmptyObject, Ports: jsonEmptyArray}
		var raw v1Pod
		fillV1Pod(&raw, p)
		split := v1PodFrom(p)
		if raw.DockerStartCmd != nil || !raw.argsRaw || split.argsRaw {
			t.Fatalf("fillV1Pod/v1PodFrom args: %v %v %v", raw.DockerStartCmd, raw.argsRaw, split.argsRaw)
		}
		if got, want := string(appendV1Pod(nil, &raw)), string(appendV1Pod(nil, &split)); got != want {
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
				if got := appendJSONFloat(nil, f); string(got) != string(want) {
					t.Fatalf("appendJSONFloat(%v) = %s, encoding/json %s", f, got, want)
				}
			}
		}
	}
}

package podjson

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestArgsMemoSameBytes: a list written through one ArgsMemo is byte for
// byte the list AppendV1PodOf writes, whatever the order in which args
// come back (hits, misses, the oldest entry replaced, args too long to
// keep, args that one pass cannot split, no args).
func TestArgsMemoSameBytes(t *testing.T) {
	long := strings.Repeat("x ", maxMemoArgs) // longer than maxMemoArgs
	cases := []struct {
		name string
		args []string
	}{
		{"one args repeated", []string{"sleep infinity", "sleep infinity", "sleep infinity"}},
		{"two interleaved", []string{"a b", "c 'd e'", "a b", "c 'd e'", "a b"}},
		{"no args among others", []string{"", "a", "", "a", ""}},
		{"more distinct args than entries", []string{"1", "2", "3", "4", "5", "1", "5", "2", "6", "1"}},
		{"same length, different args", []string{"ab", "cd", "ab", "cd"}},
		{"quotes and escapes", []string{`sh -c "echo \"hi\" && sleep 1"`, `bash -c 'a\nb'`, `sh -c "echo \"hi\" && sleep 1"`}},
		{"unbalanced quote (null)", []string{`echo 'open`, `echo 'open`, "x"}},
		{"invalid UTF-8 (word by word)", []string{"a \xff b", "a \\\xc3\xa9", "a \xff b", "a \\\xc3\xa9"}},
		{"longer than kept", []string{long, long, "a", long}},
		{"a prefix of another", []string{"python", "python -u", "python", "python -u"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var m ArgsMemo
			for round := 0; round < 2; round++ { // the second after Reset
				var got, want []byte
				for i, a := range c.args {
					p := V2Pod{ID: "pod" + string(rune('a'+i)), Image: "img", Args: a}
					got = m.AppendV1PodOf(got, &p)
					want = AppendV1PodOf(want, &p)
					if !bytes.Equal(got, want) {
						t.Fatalf("round %d, pod %d (args %q):\n got %s\nwant %s", round, i, a, got, want)
					}
				}
				m.Reset()
			}
		})
	}
}

// TestArgsMemoMixedList: the mixed benchmark list (five kinds, args with
// quotes and escapes) written through one ArgsMemo, pod after pod as the
// streamed list writes it, is AppendV1PodOf's answer.
func TestArgsMemoMixedList(t *testing.T) {
	for _, name := range []string{"testdata/podlistmixed100.json", "testdata/podlist100.json"} {
		body, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var m ArgsMemo
		var s PodStream
		s.Init(body)
		var p V2Pod
		var got, want []byte
		for s.Next(&p) {
			got = m.AppendV1PodOf(got, &p)
			want = AppendV1PodOf(want, &p)
		}
		if err := s.Finish(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the list through an ArgsMemo differs", name)
		}
	}
}

// TestArgsMemoResetKeepsNothing: after Reset no entry matches, even args
// seen before (a pooled memo starts every list empty).
func TestArgsMemoResetKeepsNothing(t *testing.T) {
	var m ArgsMemo
	p := V2Pod{Args: "a b"}
	m.AppendV1PodOf(nil, &p)
	m.Reset()
	for i, e := range m.entries {
		if e.used || len(e.args) != 0 || len(e.cmd) != 0 {
			t.Errorf("entry %d after Reset: %+v", i, e)
		}
	}
	if m.next != 0 {
		t.Errorf("next after Reset: %d", m.next)
	}
}

// BenchmarkPodListEncodeMixed encodes the mixed list's 100 decoded pods
// as the streamed list does (through an ArgsMemo) and without it.
func BenchmarkPodListEncodeMixed(b *testing.B) {
	pods, err := DecodePodList(benchMixedList(b))
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, 128<<10)
	b.Run("memo", func(b *testing.B) {
		b.ReportAllocs()
		var m ArgsMemo
		for b.Loop() {
			buf = buf[:0]
			for i := range pods {
				buf = m.AppendV1PodOf(buf, &pods[i])
			}
			m.Reset()
		}
		b.SetBytes(int64(len(buf)))
	})
	b.Run("plain", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = buf[:0]
			for i := range pods {
				buf = AppendV1PodOf(buf, &pods[i])
			}
		}
		b.SetBytes(int64(len(buf)))
	})
}

// FuzzArgsMemo: pods with two args, in turn, written through one
// ArgsMemo are the pods AppendV1PodOf writes, byte for byte.
func FuzzArgsMemo(f *testing.F) {
	for _, seed := range [][2]string{{"", ""}, {"a b", "a b"}, {"a b", "a  b"}, {`'unterminated`, "x"},
		{"\xff", "a \\\xc3\xa9"}, {`sh -c "echo \"hi\""`, "sleep infinity"}} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		var m ArgsMemo
		var got, want []byte
		for i, s := range []string{a, b, a, b, b, a} {
			p := V2Pod{ID: "p", Args: s}
			got = m.AppendV1PodOf(got, &p)
			want = AppendV1PodOf(want, &p)
			if !bytes.Equal(got, want) {
				t.Fatalf("pod %d (args %q):\n got %s\nwant %s", i, s, got, want)
			}
		}
	})
}

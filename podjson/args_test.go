package podjson

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestJoinArgs(t *testing.T) {
	tests := []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{}, ""},
		{[]string{"python", "app.py"}, "python app.py"},
		{[]string{"--port=8888", "/workspace/run.sh", "a:b,c@d%e+f_g-h"}, "--port=8888 /workspace/run.sh a:b,c@d%e+f_g-h"},
		{[]string{""}, "''"},
		{[]string{"a", "", "b"}, "a '' b"},
		{[]string{"--name", "my pod"}, "--name 'my pod'"},
		{[]string{"it's"}, `'it'\''s'`},
		{[]string{"'"}, `''\'''`},
		{[]string{`say "hi"`}, `'say "hi"'`},
		{[]string{`back\slash`}, `'back\slash'`},
		{[]string{"line1\nline2", "tab\there"}, "'line1\nline2' 'tab\there'"},
		{[]string{"$HOME", "`id`", "a;b", "a|b", "a&b", "*", "~", "#x", "(x)", "{a,b}", "!x", "a>b"},
			"'$HOME' '`id`' 'a;b' 'a|b' 'a&b' '*' '~' '#x' '(x)' '{a,b}' '!x' 'a>b'"},
		{[]string{"héllo", "日本"}, "'héllo' '日本'"},
		{[]string{"FOO=bar", "--x=1", "A=b"}, "'FOO=bar' --x=1 A=b"},
		{[]string{"_x1=", "y"}, "'_x1=' y"},
		{[]string{"1x=2"}, "1x=2"},
		{[]string{"=x"}, "=x"},
		{[]string{"bash", "-c", "echo $HOME && sleep infinity"}, "bash -c 'echo $HOME && sleep infinity'"},
	}
	for _, tt := range tests {
		if got := JoinArgs(tt.in); got != tt.want {
			t.Errorf("JoinArgs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSplitArgs(t *testing.T) {
	tests := []struct {
		in      string
		want    []string
		wantErr error
	}{
		{"", []string{}, nil},
		{"   \t\n\r ", []string{}, nil},
		{"python app.py", []string{"python", "app.py"}, nil},
		{"  a \t b\n\nc  ", []string{"a", "b", "c"}, nil},
		{`'a b' "c d"`, []string{"a b", "c d"}, nil},
		{`''`, []string{""}, nil},
		{`""`, []string{""}, nil},
		{`a '' b`, []string{"a", "", "b"}, nil},
		{`a''b`, []string{"ab"}, nil},
		{`--x="a b"c'd e'`, []string{"--x=a bcd e"}, nil},
		{`'it'\''s'`, []string{"it's"}, nil},
		{`'a\b'`, []string{`a\b`}, nil},
		{`'say "hi"'`, []string{`say "hi"`}, nil},
		{`"a\"b"`, []string{`a"b`}, nil},
		{"\"a\\$b\\`c\\\\d\\e\\'\"", []string{"a$b`c\\d\\e\\'"}, nil},
		{"\"line1\\\nline2\"", []string{"line1line2"}, nil},
		{"\"keep\nnewline\"", []string{"keep\nnewline"}, nil},
		{`a\ b`, []string{"a b"}, nil},
		{`a\\b`, []string{`a\b`}, nil},
		{`\'x\"`, []string{`'x"`}, nil},
		{"a\\\nb", []string{"ab"}, nil},
		{"a \\\n b", []string{"a", "b"}, nil},
		{`foo\`, []string{`foo\`}, nil},
		{`\`, []string{`\`}, nil},
		{`$HOME "$HOME" '$HOME'`, []string{"$HOME", "$HOME", "$HOME"}, nil},
		{`a#b #c *.txt ~ a;b a|b`, []string{"a#b", "#c", "*.txt", "~", "a;b", "a|b"}, nil},
		{"héllo '日本 語'", []string{"héllo", "日本 語"}, nil},
		{`bash -c 'echo $HOME && sleep infinity'`, []string{"bash", "-c", "echo $HOME && sleep infinity"}, nil},
		{`'unterminated`, nil, ErrUnterminatedSingleQuote},
		{`a 'b c`, nil, ErrUnterminatedSingleQuote},
		{`"unterminated`, nil, ErrUnterminatedDoubleQuote},
		{`"a\"`, nil, ErrUnterminatedDoubleQuote},
		{`"a\`, nil, ErrUnterminatedDoubleQuote},
	}
	for _, tt := range tests {
		got, err := SplitArgs(tt.in)
		if tt.wantErr != nil {
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("SplitArgs(%q) error = %v, want %v", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("SplitArgs(%q): %v", tt.in, err)
			continue
		}
		if got == nil {
			t.Errorf("SplitArgs(%q) = nil, want a non-nil slice", tt.in)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("SplitArgs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// argsRoundTrip checks SplitArgs(JoinArgs(x)) == x, nil and [] being equal.
func argsRoundTrip(t *testing.T, x []string) {
	t.Helper()
	j := JoinArgs(x)
	got, err := SplitArgs(j)
	if err != nil {
		t.Fatalf("SplitArgs(JoinArgs(%q)) = %q: %v", x, j, err)
	}
	if len(x) == 0 && len(got) == 0 {
		return
	}
	if !reflect.DeepEqual(got, x) {
		t.Fatalf("round trip of %q via %q gave %q", x, j, got)
	}
}

func TestArgsRoundTrip(t *testing.T) {
	cases := [][]string{
		nil,
		{},
		{""},
		{"", ""},
		{"a", "", "b"},
		{" "},
		{"\t", "\n", "\r\n", "\v\f"},
		{"it's", "'", "''", `'\''`},
		{`"`, `\`, `\\`, `\"`, "`", "$", "$(id)", "${x}"},
		{"héllo wörld", "日本 語", "😀", "\u00a0nbsp", "\u2028"},
		{"multi\nline\nscript", "trailing\\", "\\\n"},
		{"\xff\xfe invalid utf-8", "\x00nul", "\x01\x7f"},
		{"python", "-m", "http.server", "--bind", "0.0.0.0", "8888"},
	}
	for _, c := range cases {
		argsRoundTrip(t, c)
	}
	// Every single byte, alone and inside a word.
	for b := 0; b < 256; b++ {
		s := string([]byte{byte(b)})
		argsRoundTrip(t, []string{s})
		argsRoundTrip(t, []string{"a" + s + "b", s + s})
	}
}

func FuzzArgsRoundTrip(f *testing.F) {
	for _, seed := range []string{"", "a", "a\x00b", "\x00", "it's\x00\"q\"\x00\\", "x y\x00\n\x00\t", "héllo\x00日本"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var x []string
		if s != "" {
			x = strings.Split(s, "\x00")
		}
		argsRoundTrip(t, x)
	})
}

func FuzzSplitArgs(f *testing.F) {
	for _, seed := range []string{"", "a b", `'a b' "c\"d"`, `a\ b\`, "\"x\\\ny\"", `'unterminated`, `"\$\` + "`" + `"`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := SplitArgs(s)
		if err != nil {
			return
		}
		if a == nil {
			t.Fatalf("SplitArgs(%q) returned nil without an error", s)
		}
		b, err := SplitArgs(JoinArgs(a))
		if err != nil {
			t.Fatalf("SplitArgs(JoinArgs(%q)): %v", a, err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("SplitArgs(%q) = %q but SplitArgs(JoinArgs(...)) = %q", s, a, b)
		}
	})
}

// FuzzAppendPodArgs: dockerStartCmd as the list path writes it
// (appendPodArgs, one pass when it can) is byte for byte SplitArgs' words
// written by jw.strs, or null when SplitArgs fails; into a buffer with
// spare room and into one without (appendPodArgsOnePass stores eight bytes
// at a time only into spare capacity). The one pass gives up only on
// invalid UTF-8 or a backslash before a non-ASCII byte.
func FuzzAppendPodArgs(f *testing.F) {
	for _, seed := range []string{"", "a b", `'a b' "c\"d"`, `a\ b\`, "\"x\\\ny\"", `'unterminated`, `"\$\` + "`" + `"`,
		"a \\\n b", "\\\n", "x\\\ny", "'' \"\"", "\x01a\x7f \"\t\x02\"", `a\"b 'c"\d' "e\\f\g"`, "caf\xc3\xa9 \"\xe2\"\x80\xa8",
		`python -m vllm --model 'meta-llama/Llama-3.1-8B-Instruct' --served-model-name "llama 3"`,
		// Runs around eight bytes, a stop in the overlapping last eight
		// (a space before '!' borrows in the word test), UTF-8 in every
		// kind of run, U+2028, a backslash before non-ASCII.
		"1234567 12345678 123456789 x", "abcdefgh !", "abcdefghij !x", "a\tb !\"c\"", "'12345678901' \"12345678901\"",
		`sh -c "echo café \\"quoted\\" && sleep infinity"`, "é 'é' \"é\" a\u2028b '\u2029'", "a\\é", "\"a\\é\"", "'\xc3'\xa9", "\xff",
		"--config \"configs/run 7.yaml\"\n--resume", "jupyter --NotebookApp.token='' --notebook-dir=/workspace"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := `{"dockerStartCmd":null`
		words, err := SplitArgs(s)
		if err == nil {
			ww := jw{b: []byte("{"), first: true}
			ww.strs("dockerStartCmd", words)
			want = string(ww.b)
		}
		for _, room := range []int{0, 4096} {
			w := jw{b: append(make([]byte, 0, 1+room), '{'), first: true}
			if got := string(appendPodArgs(&w, s)); got != want {
				t.Fatalf("appendPodArgs(%q) (room %d) = %s, want %s", s, room, got, want)
			}
			w = jw{b: append(make([]byte, 0, 1+room), '{'), first: true}
			if _, ok := appendPodArgsOnePass(&w, s); !ok && utf8.ValidString(s) && !hasBackslashNonASCII(s) {
				t.Fatalf("appendPodArgsOnePass(%q) gave up", s)
			}
		}
	})
}

func hasBackslashNonASCII(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '\\' && s[i+1] >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// FuzzArgRunEnd: argRunEnd and appendArgRun (eight bytes at a time) find
// the run that a byte-by-byte test finds, in each of the three kinds of
// run, from every start, and appendArgRun appends exactly that run.
func FuzzArgRunEnd(f *testing.F) {
	for _, seed := range []string{"", "a", "abcdefg", "abcdefgh", "abcdefgh !", "a b'c\"d\\e", "1234567\x00", "12345678\x80",
		"\x7f\x20\x21\x27\x22\x5c\x1f\xff", "abcdefghijklmnopqrstuvwxyz0123456789 ' \" \\ \t"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, k := range []struct{ lo, q uint64 }{{argWordLo, '\''}, {argQuoteLo, '\''}, {argQuoteLo, '"'}} {
			for i := 0; i <= len(s); i++ {
				want := i
				for want < len(s) {
					c := uint64(s[want])
					if c < k.lo || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == k.q {
						break
					}
					want++
				}
				if got := argRunEnd(s, i, k.lo, k.q); got != want {
					t.Fatalf("argRunEnd(%q, %d, %#x, %q) = %d, want %d", s, i, k.lo, rune(k.q), got, want)
				}
				for _, room := range []int{0, 7, 8, 64} {
					b := append(make([]byte, 0, 2+room), 'x', 'y')
					b, j := appendArgRun(b, s, i, k.lo, k.q)
					if j != want || string(b) != "xy"+s[i:want] {
						t.Fatalf("appendArgRun(%q, %d, %#x, %q) (room %d) = %q, %d; want %q, %d", s, i, k.lo, rune(k.q), room, b, j, "xy"+s[i:want], want)
					}
				}
			}
		}
	})
}

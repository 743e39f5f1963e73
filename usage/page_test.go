package usage

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"
	"time"
)

// node is an element of the page, read with encoding/xml (the page is
// well-formed XML by design).
type node struct {
	name     string
	attrs    map[string]string
	children []*node
	text     strings.Builder
}

func (n *node) all(pred func(*node) bool) []*node {
	var out []*node
	var walk func(*node)
	walk = func(m *node) {
		if pred(m) {
			out = append(out, m)
		}
		for _, c := range m.children {
			walk(c)
		}
	}
	walk(n)
	return out
}

func (n *node) hasClass(c string) bool {
	return strings.Contains(" "+n.attrs["class"]+" ", " "+c+" ")
}

func (n *node) allText() string {
	var b strings.Builder
	b.WriteString(n.text.String())
	for _, c := range n.children {
		b.WriteString(c.allText())
	}
	return b.String()
}

func parsePage(t *testing.T, page []byte) *node {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(page))
	dec.Strict = true
	root := &node{name: "#document"}
	stack := []*node{root}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the page is not well-formed: %v", err)
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			n := &node{name: tk.Name.Local, attrs: map[string]string{}}
			for _, a := range tk.Attr {
				n.attrs[a.Name.Local] = a.Value
			}
			top := stack[len(stack)-1]
			top.children = append(top.children, n)
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			stack[len(stack)-1].text.Write(tk)
		}
	}
	return root
}

func byTag(tag string) func(*node) bool { return func(n *node) bool { return n.name == tag } }

func pageFixture() (*Report, PageOptions) {
	today := DayOf(t0)
	es := []Entry{
		{KeyID: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", Op: "ListPods", Count: 12, First: t0.Add(-40 * 24 * time.Hour), Last: t0.Add(-time.Hour),
			Days: []DayCount{{today - 40, 5}, {today - 2, 3}, {today, 4}}},
		{KeyID: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", Op: "CreatePod", Code: "lenient_dropped", Message: "dropped: readme <b>", Count: 2, First: t0, Last: t0},
		{KeyID: "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", Op: "PodBilling", Count: 3, First: t0.Add(-50 * 24 * time.Hour), Last: t0.Add(-45 * 24 * time.Hour),
			Days: []DayCount{{today - 50, 1}, {today - 45, 2}}},
		{KeyID: "cccccccccccccccccccccccccccccccc", Op: PassThrough, Count: 9, First: t0.Add(-2 * 24 * time.Hour), Last: t0.Add(-2 * 24 * time.Hour),
			Days: []DayCount{{today - 2, 9}}},
	}
	r := BuildReport(es, map[string]string{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa": "ci <fleet>"}, "redis", t0)
	r.HistoryDays = 60
	o := PageOptions{QuietDays: 30, Ops: map[string]PageOp{
		"ListPods":   {Route: "GET /v1/pods", V2: []string{"GET /v2/pods"}, Doc: "https://example.com/COMPATIBILITY.md#pods"},
		"PodBilling": {Route: "GET /v1/billing/pods", V2: []string{"GET /v2/billing/pods", "GET /v2/pods"}, Doc: "https://example.com/COMPATIBILITY.md#billing"},
	}}
	return r, o
}

func TestThePageOfAFixedReportIsSelfContainedAndHasItsParts(t *testing.T) {
	r, o := pageFixture()
	var buf bytes.Buffer
	if err := r.WritePage(&buf, o); err != nil {
		t.Fatal(err)
	}
	doc := parsePage(t, buf.Bytes())

	t.Run("no script and no external resource", func(t *testing.T) {
		for _, tag := range []string{"script", "link", "img", "iframe", "object", "embed", "use", "image", "form"} {
			if n := doc.all(byTag(tag)); len(n) > 0 {
				t.Errorf("the page has a <%s>", tag)
			}
		}
		for _, n := range doc.all(func(*node) bool { return true }) {
			if _, ok := n.attrs["src"]; ok {
				t.Errorf("<%s src=%q>", n.name, n.attrs["src"])
			}
			if h, ok := n.attrs["href"]; ok && n.name != "a" {
				t.Errorf("<%s href=%q>: only links may point elsewhere", n.name, h)
			}
			for k := range n.attrs {
				if strings.HasPrefix(k, "on") {
					t.Errorf("<%s %s>: an event handler", n.name, k)
				}
			}
		}
		for _, s := range doc.all(byTag("style")) {
			if css := s.allText(); strings.Contains(css, "url(") || strings.Contains(css, "@import") {
				t.Error("the stylesheet loads something")
			}
		}
	})

	t.Run("the banner states the rule and why it does not hold", func(t *testing.T) {
		b := doc.all(func(n *node) bool { return n.attrs["id"] == "retire" })
		if len(b) != 1 || !b[0].hasClass("notready") {
			t.Fatalf("banner %v", b)
		}
		txt := b[0].allText()
		for _, want := range []string{"Not ready to retire", "no v1 call and no /v2 or /graphql pass-through call for 30 days",
			"1 key still called v1 in the last 30 days (last call 1 h ago)", "1 key used the /v2 pass-through in the last 30 days (last call 2 days ago)"} {
			if !strings.Contains(txt, want) {
				t.Errorf("banner lacks %q: %s", want, txt)
			}
		}
	})

	t.Run("the burn-down has one bar per day with v1 calls in the window", func(t *testing.T) {
		svg := doc.all(func(n *node) bool { return n.name == "svg" && n.attrs["id"] == "burndown" })
		if len(svg) != 1 {
			t.Fatal("no burn-down chart")
		}
		bars := svg[0].all(func(n *node) bool { return n.name == "rect" && len(n.children) == 1 && n.children[0].name == "title" })
		var titles []string
		for _, b := range bars {
			titles = append(titles, b.children[0].allText())
		}
		// The window is 60 days: the pass-through is not v1, and the
		// calls 40, 45 and 50 days ago are in it.
		want := "2026-10-03: 1 v1 calls|2026-10-08: 2 v1 calls|2026-10-13: 5 v1 calls|2026-11-20: 3 v1 calls|2026-11-22: 4 v1 calls"
		if got := strings.Join(titles, "|"); got != want {
			t.Errorf("bars %s\nwant  %s", got, want)
		}
	})

	t.Run("the keys are in the report's order with a 30-day sparkline, operations, v2 calls and notes", func(t *testing.T) {
		rows := doc.all(func(n *node) bool { return n.name == "tr" && n.hasClass("key") })
		var ids []string
		for _, row := range rows {
			ids = append(ids, strings.TrimPrefix(row.attrs["id"], "key-"))
			spark := row.all(func(n *node) bool { return n.name == "svg" && n.hasClass("spark") })
			if len(spark) != 1 || len(spark[0].all(byTag("rect"))) != SparklineDays {
				t.Errorf("key %s: sparkline %v", row.attrs["id"], spark)
			}
		}
		var want []string
		for _, k := range r.Keys {
			want = append(want, k.KeyID)
		}
		if strings.Join(ids, ",") != strings.Join(want, ",") {
			t.Fatalf("rows %v, want %v", ids, want)
		}
		ci := rows[0]
		if !ci.hasClass("haslossy") {
			t.Error("the key given notes does not stand out")
		}
		txt := ci.allText()
		for _, want := range []string{"ci <fleet>", "ListPods", "GET /v1/pods", "GET /v2/pods", "lenient_dropped", "dropped: readme <b>"} {
			if !strings.Contains(txt, want) {
				t.Errorf("the ci row lacks %q: %s", want, txt)
			}
		}
		links := ci.all(byTag("a"))
		if len(links) != 1 || links[0].attrs["href"] != "https://example.com/COMPATIBILITY.md#pods" {
			t.Errorf("links %v", links)
		}
		if rows[1].hasClass("haslossy") || !strings.Contains(rows[1].allText(), "quiet") {
			t.Errorf("the key quiet for 45 days: %s", rows[1].allText())
		}
		if !strings.Contains(rows[2].allText(), "/v2 pass-through: 9 calls") {
			t.Errorf("the pass-through key: %s", rows[2].allText())
		}
	})
}

func TestRetirementAppliesTheOperatorGuidesRule(t *testing.T) {
	day := 24 * time.Hour
	for _, tc := range []struct {
		name     string
		entries  []Entry
		store    string
		ready    bool
		blockers int
		caveat   string
	}{
		{"nothing for 31 days", []Entry{{KeyID: "a", Op: "ListPods", Count: 1, First: t0.Add(-40 * day), Last: t0.Add(-31 * day)}}, "redis", true, 0, ""},
		{"a v1 call 29 days ago", []Entry{{KeyID: "a", Op: "ListPods", Count: 1, First: t0.Add(-40 * day), Last: t0.Add(-29 * day)}}, "redis", false, 1, ""},
		{"only a GraphQL call yesterday", []Entry{{KeyID: "a", Op: GraphQL, Count: 1, First: t0.Add(-day), Last: t0.Add(-day)}}, "redis", false, 1, ""},
		{"v1 and /v2 calls", []Entry{{KeyID: "a", Op: "GetPod", Count: 1, First: t0, Last: t0}, {KeyID: "b", Op: PassThrough, Count: 1, First: t0, Last: t0}}, "redis", false, 2, ""},
		{"an empty memory store", nil, "memory", true, 0, "this replica's only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rd := BuildReport(tc.entries, nil, tc.store, t0).Retirement(30)
			if rd.Ready != tc.ready || len(rd.Blockers) != tc.blockers {
				t.Fatalf("%+v", rd)
			}
			if got := strings.Join(rd.Caveats, " "); !strings.Contains(got, tc.caveat) || (tc.caveat == "" && got != "") {
				t.Fatalf("caveats %q", got)
			}
		})
	}
}

func TestThePageOfAnEmptyPartialReportSaysWhyItCannotBeTrusted(t *testing.T) {
	r := BuildReport(nil, nil, "redis", t0)
	r.Partial, r.PartialReason = true, "the usage store could not be read within 2s"
	var buf bytes.Buffer
	if err := r.WritePage(&buf, PageOptions{}); err != nil {
		t.Fatal(err)
	}
	doc := parsePage(t, buf.Bytes())
	b := doc.all(func(n *node) bool { return n.attrs["id"] == "retire" })
	if len(b) != 1 || !b[0].hasClass("ready") {
		t.Fatalf("banner %v", b)
	}
	if txt := b[0].allText(); !strings.Contains(txt, "Caveat: the report is partial: the usage store could not be read within 2s") {
		t.Fatalf("banner: %s", txt)
	}
	if !strings.Contains(doc.allText(), "No key has called the gateway") {
		t.Fatal("no word about the empty key table")
	}
}

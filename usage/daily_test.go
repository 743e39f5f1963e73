package usage

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

func days(ds ...DayCount) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Day.String() + "=" + itoa(d.Count) + " ")
	}
	return strings.TrimSpace(b.String())
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestDayOfIsTheUTCDay(t *testing.T) {
	for _, tc := range []struct {
		in   time.Time
		want string
	}{
		{time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), "2026-11-22"},
		{time.Date(2026, 11, 22, 23, 59, 59, 0, time.UTC), "2026-11-22"},
		{time.Date(2026, 11, 22, 23, 30, 0, 0, time.FixedZone("x", -2*3600)), "2026-11-23"},
		{time.Date(1969, 12, 31, 12, 0, 0, 0, time.UTC), "1969-12-31"},
	} {
		if got := DayOf(tc.in).String(); got != tc.want {
			t.Errorf("DayOf(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestBatcherCountsCallsPerUTCDayAcrossMidnightAndForgetsDaysPastTheWindow(t *testing.T) {
	clk := &clock{t: time.Date(2026, 11, 22, 23, 0, 0, 0, time.UTC)}
	b := New(Options{Now: clk.now, HistoryDays: 3})
	b.Record("k", "ListPods")
	b.Record("k", "ListPods")
	clk.add(2 * time.Hour) // 2026-11-23 01:00, same batch
	b.Record("k", "ListPods")
	b.RecordNote("k", "ListPods", "lenient_dropped", "x")
	es, err := b.Entries(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	e, _ := find(es, "k", "ListPods")
	if got := days(e.Days...); got != "2026-11-22=2 2026-11-23=1" || e.Count != 3 {
		t.Fatalf("days %s, count %d", got, e.Count)
	}
	if n, ok := findNote(es, "k", "ListPods", "lenient_dropped"); !ok || n.Days != nil {
		t.Fatalf("a note has days: %+v", n)
	}
	clk.add(3 * 24 * time.Hour) // 2026-11-26: the window is 24..26
	b.Record("k", "ListPods")
	es, _ = b.Entries(context.Background())
	e, _ = find(es, "k", "ListPods")
	if got := days(e.Days...); got != "2026-11-26=1" || e.Count != 4 {
		t.Fatalf("after the window: days %s, count %d (the total keeps every call)", got, e.Count)
	}
}

func TestReportCarriesTheDailyHistoryInJSONAndCSV(t *testing.T) {
	d := DayOf(t0)
	es := []Entry{
		{KeyID: "ci", Op: "ListPods", Count: 5, First: t0.Add(-48 * time.Hour), Last: t0, Days: []DayCount{{d - 2, 2}, {d, 3}}},
		{KeyID: "ci", Op: "GetPod", Count: 1, First: t0, Last: t0, Days: []DayCount{{d, 1}}},
		{KeyID: "ci", Op: PassThrough, Count: 4, First: t0, Last: t0, Days: []DayCount{{d, 4}}},
		{KeyID: "old", Op: "ListPods", Count: 7, First: t0.Add(-24 * time.Hour), Last: t0.Add(-24 * time.Hour), Days: []DayCount{{d - 1, 7}}},
	}
	r := BuildReport(es, map[string]string{"ci": "=CI"}, "memory", t0)
	if got := days(r.Summary.DailyV1Calls...); got != "2026-11-20=2 2026-11-21=7 2026-11-22=4" {
		t.Fatalf("summary daily (v1 only, the pass-through apart): %s", got)
	}
	if got := days(r.Keys[0].DailyV1Calls...); r.Keys[0].KeyID != "ci" || got != "2026-11-20=2 2026-11-22=4" {
		t.Fatalf("key daily: %s %s", r.Keys[0].KeyID, got)
	}
	js, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(js, []byte(`"daily_v1_calls":[{"day":"2026-11-20","count":2},{"day":"2026-11-21","count":7},{"day":"2026-11-22","count":4}]`)) ||
		!bytes.Contains(js, []byte(`"daily":[{"day":"2026-11-22","count":4}]`)) {
		t.Fatalf("JSON: %s", js)
	}
	var back Report
	if err := json.Unmarshal(js, &back); err != nil || back.Summary.DailyV1Calls[1].Day != d-1 {
		t.Fatalf("the JSON does not read back: %v %+v", err, back.Summary.DailyV1Calls)
	}
	var buf bytes.Buffer
	if err := r.WriteDailyCSV(&buf); err != nil {
		t.Fatal(err)
	}
	want := `key_id,name,operation,day,count
ci,'=CI,GetPod,2026-11-22,1
ci,'=CI,ListPods,2026-11-20,2
ci,'=CI,ListPods,2026-11-22,3
ci,'=CI,v2-passthrough,2026-11-22,4
old,,ListPods,2026-11-21,7
`
	if buf.String() != want {
		t.Fatalf("daily CSV:\n%s\nwant:\n%s", buf.String(), want)
	}
}

// dailyStoreTests are the daily history's store tests, run on each Redis
// of storeTests.
func dailyStoreTests(t *testing.T, newClient func() redis.UniversalClient) {
	t.Run("daily counts ride in the batch: a lost reply counts each day once, replicas merge", func(t *testing.T) {
		client := newClient()
		lose := &loseReplies{}
		client.AddHook(lose)
		prefix := randomPrefix(t)
		expireTestKeys(t, client, prefix)
		clk := &clock{t: time.Date(2026, 11, 22, 23, 0, 0, 0, time.UTC)}
		store := NewRedisStore(client, prefix)
		store.Now = clk.now
		a := New(Options{Store: store, Now: clk.now})
		bStore := NewRedisStore(newClient(), prefix)
		bStore.Now = clk.now
		b := New(Options{Store: bStore, Now: clk.now})
		for range 3 {
			a.Record("k1", "ListPods")
		}
		clk.add(2 * time.Hour)
		a.Record("k1", "ListPods")
		b.Record("k1", "ListPods")
		lose.on.Store(true)
		if err := a.Flush(context.Background()); err == nil {
			t.Fatal("a flush whose replies were lost reported success")
		}
		lose.on.Store(false)
		if err := a.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		if err := b.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		es, err := store.Entries(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		e, _ := find(es, "k1", "ListPods")
		if got := days(e.Days...); got != "2026-11-22=3 2026-11-23=2" || e.Count != 5 {
			t.Fatalf("days %s, count %d", got, e.Count)
		}
	})
	t.Run("days past the window leave the store", func(t *testing.T) {
		client := newClient()
		prefix := randomPrefix(t)
		expireTestKeys(t, client, prefix)
		clk := &clock{t: t0}
		store := NewRedisStore(client, prefix)
		store.Now = clk.now
		b := New(Options{Store: store, Now: clk.now, HistoryDays: 2})
		b.Record("k1", "GetPod")
		if err := b.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		clk.add(5 * 24 * time.Hour)
		b.Record("k1", "GetPod")
		if err := b.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		fields, err := client.HKeys(context.Background(), prefix+"days:{k1}").Result()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(strings.Join(fields, " "), "GetPod|"+itoa(int64(DayOf(t0)))) || len(fields) != 2 {
			t.Fatalf("old day still stored: %v", fields)
		}
		es, _ := b.Entries(context.Background())
		if e, _ := find(es, "k1", "GetPod"); days(e.Days...) != "2026-11-27=1" || e.Count != 2 {
			t.Fatalf("entries %+v", e)
		}
	})
}

package usage

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/v1gateway/v1gateway/internal/testredis"
)

// clock is a settable clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func find(es []Entry, key, op string) (Entry, bool) {
	for _, e := range es {
		if e.KeyID == key && e.Op == op {
			return e, true
		}
	}
	return Entry{}, false
}

func TestBatcherMemory(t *testing.T) {
	clk := &clock{t: t0}
	b := New(Options{Now: clk.now})
	b.Record("k1", "ListPods")
	clk.add(time.Minute)
	b.Record("k1", "ListPods")
	b.Record("k2", "GetPod")
	b.Record("", "GetPod") // ignored
	b.Record("k3", "")     // ignored
	if st := b.Stats(); st.Pending != 2 {
		t.Fatalf("pending %d, want 2", st.Pending)
	}
	es, err := b.Entries(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	e, ok := find(es, "k1", "ListPods")
	if !ok || e.Count != 2 || !e.First.Equal(t0) || !e.Last.Equal(t0.Add(time.Minute)) {
		t.Fatalf("k1 ListPods = %+v", e)
	}
	if len(es) != 2 {
		t.Fatalf("entries %+v", es)
	}
	if st := b.Stats(); st.Pending != 0 || st.Flushes != 1 {
		t.Fatalf("stats %+v", st)
	}
	// A second flush merges into the store.
	clk.add(time.Hour)
	b.Record("k1", "ListPods")
	if err := b.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	es, _ = b.Store().Entries(context.Background())
	if e, _ := find(es, "k1", "ListPods"); e.Count != 3 || !e.First.Equal(t0) || !e.Last.Equal(t0.Add(61*time.Minute)) {
		t.Fatalf("after second flush %+v", e)
	}
}

// failingStore fails while down is set, and records what it was given.
type failingStore struct {
	MemoryStore
	down  atomic.Bool
	calls atomic.Int32
}

func (f *failingStore) Add(ctx context.Context, batch string, d []Entry) ([]Entry, error) {
	f.calls.Add(1)
	if f.down.Load() {
		return d, errors.New("store down")
	}
	return f.MemoryStore.Add(ctx, batch, d)
}

func TestBatcherKeepsDeltasWhenStoreFails(t *testing.T) {
	clk := &clock{t: t0}
	fs := &failingStore{MemoryStore: *NewMemoryStore()}
	fs.down.Store(true)
	var flushErrs atomic.Int32
	b := New(Options{Store: fs, Now: clk.now, MaxPending: 2, OnFlushError: func(error) { flushErrs.Add(1) }})
	b.Record("k1", "ListPods")
	b.Record("k1", "GetPod")
	if err := b.Flush(context.Background()); err == nil {
		t.Fatal("flush to a down store succeeded")
	}
	// The failed deltas are kept in doubt (2 entries); more calls of the
	// same pairs still count, a third pair is over MaxPending and dropped.
	b.Record("k1", "ListPods")
	b.Record("k9", "ListPods")
	st := b.Stats()
	if st.Pending != 3 || st.FlushErrors != 1 || st.Dropped != 1 || flushErrs.Load() != 1 {
		t.Fatalf("stats %+v, flush errors reported %d", st, flushErrs.Load())
	}
	// The report still shows this replica's calls while the store is down.
	es, err := b.Entries(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := find(es, "k1", "ListPods"); e.Count != 2 {
		t.Fatalf("report while the store is down: %+v", es)
	}
	fs.down.Store(false)
	if err := b.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	es, _ = fs.MemoryStore.Entries(context.Background())
	if e, _ := find(es, "k1", "ListPods"); e.Count != 2 {
		t.Fatalf("after recovery %+v", es)
	}
	if e, _ := find(es, "k1", "GetPod"); e.Count != 1 {
		t.Fatalf("after recovery %+v", es)
	}
}

func TestRunFlushesPeriodicallyAndOnClose(t *testing.T) {
	fs := &failingStore{MemoryStore: *NewMemoryStore()}
	b := New(Options{Store: fs, FlushInterval: time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go b.Run(ctx)
	b.Record("k", "ListPods")
	deadline := time.Now().Add(5 * time.Second)
	for b.Stats().Flushes == 0 {
		if time.Now().After(deadline) {
			t.Fatal("Run never flushed")
		}
		time.Sleep(time.Millisecond)
	}
	b.Record("k", "GetPod")
	if err := b.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	es, _ := fs.MemoryStore.Entries(context.Background())
	if _, ok := find(es, "k", "GetPod"); !ok {
		t.Fatalf("Close did not flush: %+v", es)
	}
}

func TestCloseWithoutRun(t *testing.T) {
	b := New(Options{})
	b.Record("k", "ListPods")
	if err := b.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	es, _ := b.Store().Entries(context.Background())
	if len(es) != 1 {
		t.Fatalf("entries %+v", es)
	}
}

func TestReport(t *testing.T) {
	now := t0
	es := []Entry{
		{"old", "ListPods", 5, now.Add(-30 * 24 * time.Hour), now.Add(-10 * 24 * time.Hour), "", "", "", nil},
		{"ci", "ListPods", 7, now.Add(-3 * 24 * time.Hour), now.Add(-time.Hour), "", "", "", nil},
		{"ci", "CreatePod", 2, now.Add(-2 * 24 * time.Hour), now.Add(-2 * time.Hour), "", "", "", nil},
		{"ci", PassThrough, 4, now.Add(-time.Hour), now.Add(-time.Minute), "", "", "", nil},
		{"week", "GetPod", 1, now.Add(-3 * 24 * time.Hour), now.Add(-3 * 24 * time.Hour), "", "", "", nil},
		{"v2only", PassThrough, 9, now.Add(-time.Hour), now.Add(-time.Minute), "", "", "", nil},
	}
	names := map[string]string{"ci": "CI bot", "quiet": "nightly job"}
	r := BuildReport(es, names, "memory", now)
	var order []string
	for _, k := range r.Keys {
		order = append(order, k.KeyID)
	}
	if got := strings.Join(order, ","); got != "ci,week,old,v2only" {
		t.Fatalf("key order %s", got)
	}
	ci := r.Keys[0]
	if ci.Name != "CI bot" || ci.V1Calls != 9 || ci.Operations[0].Operation != "ListPods" || ci.V2PassThrough == nil || ci.V2PassThrough.Count != 4 {
		t.Fatalf("ci = %+v", ci)
	}
	if !ci.FirstSeen.Equal(now.Add(-3*24*time.Hour)) || !ci.LastSeen.Equal(now.Add(-time.Hour)) {
		t.Fatalf("ci first/last %v %v", ci.FirstSeen, ci.LastSeen)
	}
	s := r.Summary
	if s.TotalV1Calls != 15 || s.KeysCallingV1 != 3 || s.KeysCallingV1Last24h != 1 || s.KeysCallingV1Last7d != 2 ||
		s.TotalV2PassThrough != 13 || s.KeysV2PassThrough7d != 2 || s.V1OperationsEver != 3 || s.V1OperationsLast7d != 3 {
		t.Fatalf("summary %+v", s)
	}
	if s.LastV1Call == nil || !s.LastV1Call.Equal(now.Add(-time.Hour)) {
		t.Fatalf("last v1 call %v", s.LastV1Call)
	}
	if s.Operations[0].Operation != "ListPods" || s.Operations[0].Count != 12 || s.Operations[0].Keys != 2 {
		t.Fatalf("operations %+v", s.Operations)
	}
	if len(r.NamedKeysWithoutCalls) != 1 || r.NamedKeysWithoutCalls[0].Name != "nightly job" {
		t.Fatalf("named keys without calls %+v", r.NamedKeysWithoutCalls)
	}
	// JSON field names are part of the contract.
	b, _ := json.Marshal(r)
	for _, f := range []string{`"total_v1_calls":15`, `"keys_calling_v1_last_24h":1`, `"keys_calling_v1_last_7d":2`, `"key_id":"ci"`, `"name":"CI bot"`, `"v2_passthrough":{`} {
		if !bytes.Contains(b, []byte(f)) {
			t.Errorf("JSON lacks %s: %s", f, b)
		}
	}
	// An empty report has empty lists, not nulls.
	b, _ = json.Marshal(BuildReport(nil, nil, "memory", now))
	if !bytes.Contains(b, []byte(`"keys":[]`)) || !bytes.Contains(b, []byte(`"last_v1_call":null`)) {
		t.Errorf("empty report %s", b)
	}
}

func TestReportCSV(t *testing.T) {
	es := []Entry{
		{"ci", "ListPods", 7, t0.Add(-time.Hour), t0, "", "", "", nil},
		{"ci", PassThrough, 1, t0, t0, "", "", "", nil},
		{"x", "GetPod", 1, t0.Add(-time.Hour), t0.Add(-time.Hour), "", "", "", nil},
	}
	r := BuildReport(es, map[string]string{"ci": "CI, \"main\"", "x": "=cmd()"}, "memory", t0)
	var buf bytes.Buffer
	if err := r.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		CSVHeader,
		{"ci", `CI, "main"`, "ListPods", "7", "2026-11-22T11:00:00Z", "2026-11-22T12:00:00Z"},
		{"ci", `CI, "main"`, PassThrough, "1", "2026-11-22T12:00:00Z", "2026-11-22T12:00:00Z"},
		{"x", "'=cmd()", "GetPod", "1", "2026-11-22T11:00:00Z", "2026-11-22T11:00:00Z"},
	}
	if len(rows) != len(want) {
		t.Fatalf("rows %q", rows)
	}
	for i := range want {
		if strings.Join(rows[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("row %d = %q, want %q", i, rows[i], want[i])
		}
	}
}

func randomPrefix(t *testing.T) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "v1gw:test:usage:" + t.Name() + ":" + hex.EncodeToString(b) + ":"
}

// expireTestKeys gives every key under prefix a TTL when the test ends, so
// that a shared Redis (CI's) keeps nothing of it for long.
func expireTestKeys(t *testing.T, c redis.UniversalClient, prefix string) {
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		iter := c.Scan(ctx, 0, prefix+"*", 100).Iterator()
		for iter.Next(ctx) {
			c.Expire(ctx, iter.Val(), 10*time.Minute)
		}
	})
}

// cmdCounter counts the commands a client sends, except a new
// connection's handshake (HELLO, CLIENT SETINFO, ...).
type cmdCounter struct{ n atomic.Int64 }

func handshake(cmd redis.Cmder) bool {
	switch cmd.Name() {
	case "hello", "client", "auth", "select":
		return true
	}
	return false
}

func (c *cmdCounter) DialHook(next redis.DialHook) redis.DialHook { return next }
func (c *cmdCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if !handshake(cmd) {
			c.n.Add(1)
		}
		return next(ctx, cmd)
	}
}
func (c *cmdCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, cmd := range cmds {
			if !handshake(cmd) {
				c.n.Add(1)
			}
		}
		return next(ctx, cmds)
	}
}

// storeTests run against miniredis and a real Redis.
// loseReplies makes pipelines look failed after Redis ran them, as a reply
// lost on the network does.
type loseReplies struct{ on atomic.Bool }

func (l *loseReplies) DialHook(next redis.DialHook) redis.DialHook          { return next }
func (l *loseReplies) ProcessHook(next redis.ProcessHook) redis.ProcessHook { return next }
func (l *loseReplies) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		err := next(ctx, cmds)
		if !l.on.Load() {
			return err
		}
		lost := errors.New("reply lost")
		for _, c := range cmds {
			c.SetErr(lost)
		}
		return lost
	}
}

func storeTests(t *testing.T, newClient func() redis.UniversalClient) {
	dailyStoreTests(t, newClient)
	fieldStoreTests(t, newClient)
	t.Run("a batch whose reply was lost is applied once", func(t *testing.T) {
		client := newClient()
		lose := &loseReplies{}
		client.AddHook(lose)
		prefix := randomPrefix(t)
		expireTestKeys(t, client, prefix)
		store := NewRedisStore(client, prefix)
		b := New(Options{Store: store})
		for range 5 {
			b.Record("k1", "ListPods")
		}
		b.RecordNote("k1", "CreatePod", "gpu_type_chosen", "chose A40")
		lose.on.Store(true)
		if err := b.Flush(context.Background()); err == nil {
			t.Fatal("a flush whose replies were lost reported success")
		}
		lose.on.Store(false)
		b.Record("k1", "ListPods") // a new call meanwhile
		if err := b.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		es, err := store.Entries(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if e, _ := find(es, "k1", "ListPods"); e.Count != 6 {
			t.Fatalf("ListPods counted %d times for 6 calls: %+v", e.Count, es)
		}
		for _, e := range es {
			if e.Code == "gpu_type_chosen" && e.Count != 1 {
				t.Fatalf("note counted %d times for 1: %+v", e.Count, e)
			}
		}
		if st := b.Stats(); st.Pending != 0 {
			t.Fatalf("still pending after the retry: %+v", st)
		}
	})
	t.Run("batching: no Redis command on the request path", func(t *testing.T) {
		client := newClient()
		cc := &cmdCounter{}
		client.AddHook(cc)
		clk := &clock{t: t0}
		prefix := randomPrefix(t)
		expireTestKeys(t, client, prefix)
		b := New(Options{Store: NewRedisStore(client, prefix), Now: clk.now})
		for i := range 1000 {
			b.Record("k"+string(rune('a'+i%3)), "ListPods")
		}
		if n := cc.n.Load(); n != 0 {
			t.Fatalf("%d Redis commands on the request path", n)
		}
		if err := b.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		// One pipeline: per key id one script call and one SADD.
		if n := cc.n.Load(); n != 6 {
			t.Fatalf("flush sent %d commands, want 6", n)
		}
		es, err := b.Entries(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var total int64
		for _, e := range es {
			total += e.Count
		}
		if total != 1000 || len(es) != 3 {
			t.Fatalf("entries %+v", es)
		}
	})

	t.Run("notes are batched with the counts and merged across replicas, latest message kept", func(t *testing.T) {
		prefix := randomPrefix(t)
		client := newClient()
		t.Cleanup(func() { deletePrefix(t, client, prefix) })
		cc := &cmdCounter{}
		client.AddHook(cc)
		clkA, clkB := &clock{t: t0}, &clock{t: t0.Add(-time.Hour)}
		a := New(Options{Store: NewRedisStore(client, prefix), Now: clkA.now})
		b := New(Options{Store: NewRedisStore(newClient(), prefix), Now: clkB.now})
		a.Record("k1", "CreatePod")
		a.RecordNote("k1", "CreatePod", "lenient_dropped", "dropped: a")
		b.Record("k1", "CreatePod")
		b.RecordNote("k1", "CreatePod", "lenient_dropped", "dropped: b (earlier)")
		a.Record("k1", "ResetPod")
		a.RecordNote("k1", "ResetPod", "reset_refused", "reset: use restart")
		if n := cc.n.Load(); n != 0 {
			t.Fatalf("%d Redis commands on the request path", n)
		}
		if err := a.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		// One pipeline: one script for the counts, one for the notes, one SADD.
		if n := cc.n.Load(); n != 3 {
			t.Fatalf("flush sent %d commands, want 3", n)
		}
		if err := b.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		es, err := a.Entries(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if c, _ := find(es, "k1", "CreatePod"); c.Count != 2 || c.Code != "" {
			t.Fatalf("call count mixed with notes: %+v", es)
		}
		n, ok := findNote(es, "k1", "CreatePod", "lenient_dropped")
		if !ok || n.Count != 2 || n.Message != "dropped: a" || !n.First.Equal(t0.Add(-time.Hour)) || !n.Last.Equal(t0) {
			t.Fatalf("merged note %+v in %+v", n, es)
		}
		if n, ok := findNote(es, "k1", "ResetPod", "reset_refused"); !ok || n.Count != 1 {
			t.Fatalf("entries %+v", es)
		}
		if len(es) != 4 {
			t.Fatalf("entries %+v", es)
		}
	})

	t.Run("two gateways, one merged report", func(t *testing.T) {
		prefix := randomPrefix(t)
		clkA, clkB := &clock{t: t0}, &clock{t: t0.Add(-time.Hour)}
		ca := newClient()
		expireTestKeys(t, ca, prefix)
		a := New(Options{Store: NewRedisStore(ca, prefix), Now: clkA.now})
		b := New(Options{Store: NewRedisStore(newClient(), prefix), Now: clkB.now})
		a.Record("k1", "ListPods")
		a.Record("k1", "ListPods")
		b.Record("k1", "ListPods") // earlier first seen, on the other replica
		clkB.add(2 * time.Hour)
		b.Record("k1", "ListPods") // later last seen
		b.Record("k2", "CreatePod")
		if err := a.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		if err := b.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		esA, err := a.Entries(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		esB, _ := b.Entries(context.Background())
		ra := BuildReport(esA, nil, "redis", t0)
		rb := BuildReport(esB, nil, "redis", t0)
		ja, _ := json.Marshal(ra)
		jb, _ := json.Marshal(rb)
		if !bytes.Equal(ja, jb) {
			t.Fatalf("replicas disagree:\n%s\n%s", ja, jb)
		}
		e, _ := find(esA, "k1", "ListPods")
		if e.Count != 4 || !e.First.Equal(t0.Add(-time.Hour)) || !e.Last.Equal(t0.Add(time.Hour)) {
			t.Fatalf("merged k1 = %+v", e)
		}
		if ra.Summary.TotalV1Calls != 5 || len(ra.Keys) != 2 {
			t.Fatalf("report %s", ja)
		}
	})
}

func findNote(es []Entry, key, op, code string) (Entry, bool) {
	for _, e := range es {
		if e.KeyID == key && e.Op == op && e.Code == code {
			return e, true
		}
	}
	return Entry{}, false
}

// deletePrefix removes a test's keys.
func deletePrefix(t *testing.T, c redis.UniversalClient, prefix string) {
	ctx := context.Background()
	keys, err := c.Keys(ctx, prefix+"*").Result()
	if err == nil && len(keys) > 0 {
		for _, k := range keys {
			c.Del(ctx, k)
		}
	}
}

func TestBatcherCountsNotesApartFromCallsKeepingTheLatestMessage(t *testing.T) {
	clk := &clock{t: t0}
	b := New(Options{Now: clk.now})
	b.Record("k1", "CreatePod")
	b.RecordNote("k1", "CreatePod", "unknown_fields_ignored", "first")
	clk.add(time.Minute)
	b.Record("k1", "CreatePod")
	b.RecordNote("k1", "CreatePod", "unknown_fields_ignored", "second")
	b.RecordNote("k1", "CreatePod", "", "no code: ignored")
	b.RecordNote("", "CreatePod", "x", "no key: ignored")
	b.RecordNote("k1", "UpdatePod", "lenient_dropped", strings.Repeat("é", MaxNoteMessage))
	es, err := b.Entries(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 3 {
		t.Fatalf("entries %+v", es)
	}
	if c, _ := find(es, "k1", "CreatePod"); c.Count != 2 || c.Code != "" {
		t.Fatalf("call count %+v", es)
	}
	n, ok := findNote(es, "k1", "CreatePod", "unknown_fields_ignored")
	if !ok || n.Count != 2 || n.Message != "second" || !n.First.Equal(t0) || !n.Last.Equal(t0.Add(time.Minute)) {
		t.Fatalf("note %+v", n)
	}
	long, _ := findNote(es, "k1", "UpdatePod", "lenient_dropped")
	if len(long.Message) > MaxNoteMessage || !utf8.ValidString(long.Message) || len(long.Message) < MaxNoteMessage-1 {
		t.Fatalf("long message cut to %d bytes, valid %v", len(long.Message), utf8.ValidString(long.Message))
	}
	// A later flush merges into the store; an older message never replaces a newer one.
	b.RecordNote("k1", "CreatePod", "unknown_fields_ignored", "third")
	_ = b.Flush(context.Background())
	es, _ = b.Store().Entries(context.Background())
	if n, _ := findNote(es, "k1", "CreatePod", "unknown_fields_ignored"); n.Count != 3 || n.Message != "third" {
		t.Fatalf("note after second flush %+v", n)
	}
}

func TestReportNotesAndGraphQL(t *testing.T) {
	now := t0
	es := []Entry{
		{KeyID: "ci", Op: "CreatePod", Count: 3, First: now.Add(-time.Hour), Last: now.Add(-time.Minute)},
		{KeyID: "ci", Op: "CreatePod", Code: "lenient_dropped", Message: "dropped: dockerArgs", Count: 2, First: now.Add(-time.Hour), Last: now.Add(-time.Minute)},
		{KeyID: "ci", Op: "ResetPod", Code: "reset_refused", Message: "use restart", Count: 1, First: now.Add(-2 * time.Hour), Last: now.Add(-2 * time.Hour)},
		{KeyID: "ci", Op: GraphQL, Count: 5, First: now.Add(-3 * time.Hour), Last: now.Add(-time.Second)},
		{KeyID: "old", Op: "UpdatePod", Code: "lenient_dropped", Message: "dropped: x", Count: 1, First: now.Add(-30 * 24 * time.Hour), Last: now.Add(-30 * 24 * time.Hour)},
		{KeyID: "old", Op: "UpdatePod", Count: 1, First: now.Add(-30 * 24 * time.Hour), Last: now.Add(-30 * 24 * time.Hour)},
		{KeyID: "gq", Op: GraphQL, Count: 2, First: now.Add(-8 * 24 * time.Hour), Last: now.Add(-8 * 24 * time.Hour)},
		{KeyID: "gq", Op: PassThrough, Count: 1, First: now.Add(-time.Hour), Last: now.Add(-time.Hour)},
	}
	r := BuildReport(es, map[string]string{"ci": "=CI"}, "memory", now)
	s := r.Summary
	if s.TotalV1Calls != 4 || s.TotalGraphQL != 7 || s.KeysGraphQL7d != 1 || s.TotalV2PassThrough != 1 || s.KeysWithNotes7d != 1 {
		t.Fatalf("summary %+v", s)
	}
	if len(s.Notes) != 2 || s.Notes[0].Code != "lenient_dropped" || s.Notes[0].Count != 3 || s.Notes[0].Keys != 2 ||
		s.Notes[1].Code != "reset_refused" || s.Notes[1].Keys != 1 {
		t.Fatalf("note totals %+v", s.Notes)
	}
	var order []string
	for _, k := range r.Keys {
		order = append(order, k.KeyID)
	}
	if got := strings.Join(order, ","); got != "ci,old,gq" {
		t.Fatalf("key order %s", got)
	}
	ci := r.Keys[0]
	if ci.V1Calls != 3 || ci.GraphQL == nil || ci.GraphQL.Count != 5 || len(ci.Notes) != 2 ||
		ci.Notes[0].Code != "lenient_dropped" || ci.Notes[0].LastMessage != "dropped: dockerArgs" || ci.Notes[0].Operation != "CreatePod" {
		t.Fatalf("ci %+v", ci)
	}
	b, _ := json.Marshal(r)
	for _, f := range []string{`"total_graphql_calls":7`, `"keys_using_graphql_last_7d":1`, `"graphql":{"operation":"graphql","count":5`,
		`"compat_notes":[{"operation":"CreatePod","code":"lenient_dropped","count":2`, `"last_message":"dropped: dockerArgs"`,
		`"keys_with_compat_notes_last_7d":1`, `"compat_notes":[{"code":"lenient_dropped","count":3,"keys":2`} {
		if !bytes.Contains(b, []byte(f)) {
			t.Errorf("JSON lacks %s: %s", f, b)
		}
	}
	// The calls CSV keeps its columns, with a graphql row; notes have their own.
	var buf bytes.Buffer
	if err := r.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	rows, _ := csv.NewReader(&buf).ReadAll()
	if strings.Join(rows[0], ",") != strings.Join(CSVHeader, ",") || strings.Join(rows[2], ",") != "ci,'=CI,graphql,5,2026-11-22T09:00:00Z,2026-11-22T11:59:59Z" {
		t.Fatalf("calls CSV %q", rows)
	}
	buf.Reset()
	if err := r.WriteNotesCSV(&buf); err != nil {
		t.Fatal(err)
	}
	rows, _ = csv.NewReader(&buf).ReadAll()
	want := [][]string{
		NotesCSVHeader,
		{"ci", "'=CI", "CreatePod", "lenient_dropped", "", "2", "2026-11-22T11:00:00Z", "2026-11-22T11:59:00Z", "dropped: dockerArgs"},
		{"ci", "'=CI", "ResetPod", "reset_refused", "", "1", "2026-11-22T10:00:00Z", "2026-11-22T10:00:00Z", "use restart"},
		{"old", "", "UpdatePod", "lenient_dropped", "", "1", "2026-10-23T12:00:00Z", "2026-10-23T12:00:00Z", "dropped: x"},
	}
	if len(rows) != len(want) {
		t.Fatalf("notes CSV %q", rows)
	}
	for i := range want {
		if strings.Join(rows[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("notes row %d = %q, want %q", i, rows[i], want[i])
		}
	}
}

func TestRedisStoreMiniredis(t *testing.T) {
	mr := miniredis.RunT(t)
	storeTests(t, func() redis.UniversalClient {
		c := redis.NewClient(&redis.Options{Addr: mr.Addr()})
		t.Cleanup(func() { c.Close() })
		return c
	})

	t.Run("Redis down keeps the deltas", func(t *testing.T) {
		mr := miniredis.RunT(t)
		c := redis.NewClient(&redis.Options{Addr: mr.Addr(), MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
		defer c.Close()
		b := New(Options{Store: NewRedisStore(c, "")})
		b.Record("k", "ListPods")
		mr.SetError("LOADING")
		if err := b.Flush(context.Background()); err == nil {
			t.Fatal("flush succeeded on a failing Redis")
		}
		if b.Stats().Pending != 1 {
			t.Fatal("deltas lost after a failed flush")
		}
		mr.SetError("")
		b.Record("k", "ListPods")
		if err := b.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		es, _ := b.Store().Entries(context.Background())
		if e, _ := find(es, "k", "ListPods"); e.Count != 2 {
			t.Fatalf("entries %+v", es)
		}
		// The layout is documented: one hash per key id, one set of ids.
		if got := mr.HGet("v1gw:usage:{k}", "ListPods:count"); got != "2" {
			t.Errorf("hash field = %q", got)
		}
		if ok, _ := mr.SIsMember("v1gw:usage:keys", "k"); !ok {
			t.Error("key id not in the set")
		}
	})
}

func TestRedisStoreReal(t *testing.T) {
	url := testredis.URL(t)
	storeTests(t, func() redis.UniversalClient {
		c, err := NewRedisClient(url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	})
}

func TestNewRedisClientURLs(t *testing.T) {
	for _, u := range []string{
		"redis://localhost:6379/0",
		"rediss://u:p@redis:6380",
		"unix:///run/redis.sock?db=1",
		"redis://h1:6379?addr=h2:6379",
		"redis-sentinel://:pw@s1:26379,s2/mymaster?db=2&sentinel_password=x",
	} {
		c, err := NewRedisClient(u)
		if err != nil {
			t.Errorf("%s: %v", u, err)
			continue
		}
		// Named as the usage store's, with go-redis's retries (not the
		// limiter's defaults).
		if c, ok := c.(*redis.Client); ok {
			if o := c.Options(); o.ClientName != "v1gateway-usage" || o.MaxRetries <= 0 || o.ContextTimeoutEnabled {
				t.Errorf("%s: options %+v", u, o)
			}
		}
		c.Close()
	}
	for _, u := range []string{"nope", "redis-sentinel://s1:26379", "http://x:1", "redis-sentinel://s/m?db=-1"} {
		if c, err := NewRedisClient(u); err == nil {
			c.Close()
			t.Errorf("%s accepted", u)
		} else if strings.Contains(err.Error(), "pw") {
			t.Errorf("error leaks: %v", err)
		}
	}
}

func TestRedisStoreCluster(t *testing.T) {
	srv := testredis.StartCluster(t)
	storeTests(t, func() redis.UniversalClient {
		c, err := NewRedisClient(srv.URL() + "?addr=" + srv.Addr())
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := c.(*redis.ClusterClient); !ok {
			t.Fatalf("client %T, want a cluster client", c)
		}
		t.Cleanup(func() { c.Close() })
		return c
	})
}

// Redis frozen (SIGSTOP) during a flush: the flush times out, Redis runs
// the pipeline when it wakes up, and the retry must not count it again
// (the fault run counted 2502 calls for 2001 requests).
func TestRedisStoreFrozenDuringFlushCountsOnce(t *testing.T) {
	srv := testredis.Start(t)
	client, err := NewRedisClient(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	store := NewRedisStore(client, randomPrefix(t))
	b := New(Options{Store: store, FlushTimeout: 300 * time.Millisecond})
	for range 2001 {
		b.Record("k1", "ListPods")
	}
	srv.Freeze()
	if err := b.Flush(context.Background()); err == nil {
		t.Fatal("a flush to a frozen Redis reported success")
	}
	// /usage meanwhile answers at once with what this replica knows.
	start := time.Now()
	es, partial, reason := b.Snapshot(context.Background(), 200*time.Millisecond)
	if el := time.Since(start); el > time.Second || !partial || reason == nil {
		t.Fatalf("snapshot with Redis frozen: partial=%v reason=%v after %v", partial, reason, el)
	}
	if e, _ := find(es, "k1", "ListPods"); e.Count != 2001 {
		t.Fatalf("partial snapshot shows %d calls, want 2001", e.Count)
	}
	srv.Thaw()
	thawed := time.Now()
	deadline := time.Now().Add(15 * time.Second)
	for b.Flush(context.Background()) != nil {
		if time.Now().After(deadline) {
			t.Fatal("no flush succeeded after Redis woke up")
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("flushed %v after Redis woke up", time.Since(thawed))
	es, err = store.Entries(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	e, _ := find(es, "k1", "ListPods")
	var perDay int64
	for _, d := range e.Days {
		perDay += d.Count
	}
	if e.Count != 2001 || perDay != 2001 {
		t.Fatalf("counted %d calls for 2001, %d by day %+v", e.Count, perDay, e.Days)
	}
	es, partial, _ = b.Snapshot(context.Background(), time.Second)
	if e, _ := find(es, "k1", "ListPods"); partial || e.Count != 2001 {
		t.Fatalf("snapshot after recovery: partial=%v count=%d", partial, e.Count)
	}
}

// Counts expire Retention after their last write, and the report forgets
// key ids whose counts expired.
func TestRedisStoreRetention(t *testing.T) {
	mr := miniredis.RunT(t)
	client := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	defer client.Close()
	store := NewRedisStore(client, "")
	store.Retention = time.Hour
	b := New(Options{Store: store})
	b.Record("k1", "ListPods")
	b.RecordNote("k1", "CreatePod", "gpu_type_chosen", "m")
	if err := b.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if ttl := mr.TTL(DefaultRedisPrefix + "{k1}"); ttl != time.Hour {
		t.Fatalf("counts TTL %v, want 1h", ttl)
	}
	if ttl := mr.TTL(DefaultRedisPrefix + "notes:{k1}"); ttl != time.Hour {
		t.Fatalf("notes TTL %v, want 1h", ttl)
	}
	if ttl := mr.TTL(DefaultRedisPrefix + "days:{k1}"); ttl != time.Hour {
		t.Fatalf("daily counts TTL %v, want 1h", ttl)
	}
	mr.FastForward(2 * time.Hour)
	es, err := store.Entries(context.Background())
	if err != nil || len(es) != 0 {
		t.Fatalf("after the retention: %+v %v", es, err)
	}
	if ok, _ := mr.SIsMember(DefaultRedisPrefix+"keys", "k1"); ok {
		t.Fatal("the expired key id is still listed")
	}
}

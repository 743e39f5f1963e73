// Package usage keeps the migration report: how often each API key (by key
// id, never the key itself) called each v1 operation, and when it did so
// first and last. It is what tells an operator when the gateway can be
// switched off.
//
// The request path only increments an in-process map (Batcher.Record: a
// mutex and a map update, no I/O). A background loop writes the deltas to
// a Store every few seconds and once more on shutdown: MemoryStore for a
// single replica, RedisStore to merge every replica's counts into one
// fleet-wide report. A failed write keeps the deltas for the next flush
// (bounded by MaxPending) and never fails a request.
//
// The same counters hold the compatibility notes (P7a): how often each key
// id met each kind of warning, lenient drop, emulation or refusal in each v1
// operation, with the latest message (Batcher.RecordNote; an Entry with a
// Code), and, for a note about one field (a refused minRAMPerGPU, a dropped
// dockerEntrypoint), per field (Batcher.RecordFieldNote; Entry.Field). They
// are batched and flushed with the call counts.
//
// Call counts also keep a count per UTC day (Entry.Days) for the last
// HistoryDays days: the same batches carry them, so the daily history is
// exactly as exact as the totals, with no extra store round trip.
package usage

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// PassThrough is the operation name under which /v2 pass-through calls are
// counted. They are not v1 usage (the report keeps them apart), but a key
// that still reaches v2 through the gateway must be moved to v2's own base
// URL before the gateway is switched off.
const PassThrough = "v2-passthrough"

// GraphQL is the operation name under which /graphql pass-through calls are
// counted: apart from v1 and /v2, for the same reason (a client that still
// sends GraphQL through the gateway needs the vendor's URL before the
// gateway is switched off).
const GraphQL = "graphql"

// Anonymous is the key id under which /graphql calls sent without any key
// are counted (they are limited per client address, but never counted per
// address: the report names keys, and an address is not one).
const Anonymous = "anonymous"

// graphQLFieldPrefix starts the operation name of a GraphQL root field the
// gateway answered from v2 (graphql_mode translate or auto): "graphql:myself".
const graphQLFieldPrefix = "graphql:"

// GraphQLField is the operation name under which a GraphQL root field the
// gateway answered is counted, beside the request itself (GraphQL).
func GraphQLField(name string) string { return graphQLFieldPrefix + name }

// MaxNoteMessage bounds the length of a note's message kept in the store
// (longer ones are cut): messages may echo field names a client sent.
const MaxNoteMessage = 500

// MaxNoteField bounds the field name of a note (v1 field names are short).
const MaxNoteField = 64

// Recorder counts calls. Record must be cheap and never block on I/O: it is
// called on the request path.
type Recorder interface {
	Record(keyID, op string)
}

// Entry is the usage of one operation by one key id, or, when Code is set,
// how often one kind of compatibility note was given to one key id in one
// operation.
type Entry struct {
	KeyID string
	Op    string
	Count int64
	First time.Time
	Last  time.Time
	// Code is "" for a call count, else a note code (translate.NoteCodes).
	Code string
	// Field is the v1 field a note is about ("" for a call count and for a
	// note about no single field).
	Field string
	// Message is a note's latest message ("" for a call count).
	Message string
	// Days are a call count's counts per UTC day, oldest first (nil for a
	// note). A slice is never changed once the Entry is handed out.
	Days []DayCount
}

// merge folds o (same key id, operation and code) into e; the message of
// the later one wins.
func (e *Entry) merge(o Entry) {
	if o.Message != "" && (e.Message == "" || !o.Last.Before(e.Last)) {
		e.Message = o.Message
	}
	e.Count += o.Count
	e.Days = mergeDays(e.Days, o.Days)
	if e.First.IsZero() || (!o.First.IsZero() && o.First.Before(e.First)) {
		e.First = o.First
	}
	if o.Last.After(e.Last) {
		e.Last = o.Last
	}
}

// Store keeps the usage counts shared by the replicas.
type Store interface {
	// Add adds the deltas under the id batch, at most once: a retry of
	// deltas whose outcome was unknown (a timeout, a lost reply) passes the
	// same batch and the same deltas, and a store that had applied them
	// applies nothing. It returns the deltas not confirmed applied, to be
	// retried that way.
	Add(ctx context.Context, batch string, deltas []Entry) (notConfirmed []Entry, err error)
	// Entries returns every recorded entry.
	Entries(ctx context.Context) ([]Entry, error)
	// Kind names the store in the report ("memory" or "redis").
	Kind() string
}

// Options configure a Batcher.
type Options struct {
	// Store receives the deltas; nil means a new MemoryStore.
	Store Store
	// FlushInterval is how often Run writes the deltas (default 5s).
	FlushInterval time.Duration
	// FlushTimeout bounds one flush (default 5s).
	FlushTimeout time.Duration
	// MaxPending bounds the distinct (key id, operation) pairs kept in
	// memory between flushes, including those kept after failed flushes
	// (default 100000). Calls of new pairs beyond it are dropped and
	// counted in Stats.Dropped; calls of pairs already pending are always
	// counted.
	MaxPending int
	// Now is the clock (default time.Now).
	Now func() time.Time
	// OnFlushError, when set, is called after each failed flush (from the
	// flushing goroutine).
	OnFlushError func(error)
	// HistoryDays is how many UTC days (today included) of daily counts
	// the entries keep (default DefaultHistoryDays).
	HistoryDays int
}

// Stats are the Batcher's counters, for metrics.
type Stats struct {
	Pending     int    // distinct (key id, operation[, note code]) counters waiting for the next flush
	Flushes     uint64 // flushes that wrote something
	FlushErrors uint64 // flushes that failed (their deltas were kept)
	Dropped     uint64 // calls not counted because MaxPending was reached
}

type pairKey struct{ keyID, op, code, field string }

func keyOf(e *Entry) pairKey { return pairKey{e.KeyID, e.Op, e.Code, e.Field} }

// Batcher implements Recorder: it counts in memory and flushes to a Store.
type Batcher struct {
	store        Store
	interval     time.Duration
	flushTimeout time.Duration
	maxPending   int
	now          func() time.Time
	onFlushError func(error)
	historyDays  int

	mu      sync.Mutex
	pending map[pairKey]*Entry
	// doubt holds batches whose outcome is unknown (a failed flush): they
	// are sent again, as they were and under the same id, before anything
	// new, so that a store that applied them does not count them twice.
	doubt  []doubtBatch
	doubtN int // entries in doubt, counted against MaxPending
	// local is what this replica has written to a shared store, kept to
	// answer a partial report when that store cannot be read (nil for a
	// MemoryStore, which is local already).
	local map[pairKey]*Entry

	flushMu sync.Mutex // one flush at a time

	flushes, flushErrors, dropped atomic.Uint64

	stopOnce sync.Once
	stop     chan struct{}
	done     chan struct{}
	running  atomic.Bool
}

var _ Recorder = (*Batcher)(nil)

type doubtBatch struct {
	id      string
	entries []Entry
}

var batchSeq atomic.Uint64

// newBatchID is unique across replicas and restarts: random bytes and a
// sequence number.
func newBatchID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:]) + "-" + strconv.FormatUint(batchSeq.Add(1), 36)
}

// New returns a Batcher. Call Run (usually in a goroutine) to flush
// periodically, and Close to stop it with a final flush.
func New(o Options) *Batcher {
	b := &Batcher{
		store:        o.Store,
		interval:     o.FlushInterval,
		flushTimeout: o.FlushTimeout,
		maxPending:   o.MaxPending,
		now:          o.Now,
		onFlushError: o.OnFlushError,
		historyDays:  o.HistoryDays,
		pending:      map[pairKey]*Entry{},
		stop:         make(chan struct{}),
		done:         make(chan struct{}),
	}
	if b.store == nil {
		b.store = NewMemoryStore()
	}
	if _, ok := b.store.(*MemoryStore); !ok {
		b.local = map[pairKey]*Entry{}
	}
	if b.interval <= 0 {
		b.interval = 5 * time.Second
	}
	if b.flushTimeout <= 0 {
		b.flushTimeout = 5 * time.Second
	}
	if b.maxPending <= 0 {
		b.maxPending = 100000
	}
	if b.now == nil {
		b.now = time.Now
	}
	if b.historyDays <= 0 {
		b.historyDays = DefaultHistoryDays
	}
	switch s := b.store.(type) {
	case *MemoryStore:
		s.setHistoryDays(b.historyDays)
	case *RedisStore:
		if s.HistoryDays <= 0 {
			s.HistoryDays = b.historyDays
		}
	}
	return b
}

// HistoryDays is how many UTC days of daily counts the entries keep.
func (b *Batcher) HistoryDays() int { return b.historyDays }

// Store returns the Batcher's store.
func (b *Batcher) Store() Store { return b.store }

// Record counts one call of op by keyID. Empty key ids or operations are
// ignored.
func (b *Batcher) Record(keyID, op string) {
	if keyID == "" || op == "" {
		return
	}
	b.record(pairKey{keyID, op, "", ""}, "")
}

// RecordNote counts one compatibility note of kind code given to keyID in
// op, keeping msg as the latest message (cut to MaxNoteMessage bytes).
// Like Record, it only updates the in-process map. Empty key ids,
// operations or codes are ignored.
func (b *Batcher) RecordNote(keyID, op, code, msg string) {
	b.RecordFieldNote(keyID, op, code, "", msg)
}

// RecordFieldNote is RecordNote for a note about one v1 field, counted
// apart per field. A field name the stores could not keep apart (empty,
// longer than MaxNoteField bytes, or holding '|' or ':') is counted as a
// note about no single field.
func (b *Batcher) RecordFieldNote(keyID, op, code, field, msg string) {
	if keyID == "" || op == "" || code == "" {
		return
	}
	if len(field) > MaxNoteField || strings.ContainsAny(field, "|:") {
		field = ""
	}
	b.record(pairKey{keyID, op, code, field}, truncateMessage(msg))
}

func (b *Batcher) record(k pairKey, msg string) {
	now := b.now()
	day := DayOf(now)
	b.mu.Lock()
	if e, ok := b.pending[k]; ok {
		e.Count++
		if k.code == "" {
			e.Days = addDay(e.Days, day, 1)
		}
		if !now.Before(e.Last) {
			e.Last = now
			e.Message = msg
		}
		if now.Before(e.First) {
			e.First = now
		}
		b.mu.Unlock()
		return
	}
	if len(b.pending)+b.doubtN >= b.maxPending && !b.inDoubtLocked(k) {
		b.mu.Unlock()
		b.dropped.Add(1)
		return
	}
	// One allocation for the entry and its first day.
	pe := &pendingEntry{Entry: Entry{KeyID: k.keyID, Op: k.op, Code: k.code, Field: k.field, Message: msg, Count: 1, First: now, Last: now}}
	if k.code == "" {
		pe.day[0] = DayCount{Day: day, Count: 1}
		pe.Days = pe.day[:]
	}
	b.pending[k] = &pe.Entry
	b.mu.Unlock()
}

// pendingEntry is a pending Entry with room for its first day.
type pendingEntry struct {
	Entry
	day [1]DayCount
}

// inDoubtLocked reports whether k has deltas in doubt (b.mu held): its new
// calls are counted even past MaxPending, as calls of a pending pair are.
func (b *Batcher) inDoubtLocked(k pairKey) bool {
	for _, d := range b.doubt {
		for i := range d.entries {
			if keyOf(&d.entries[i]) == k {
				return true
			}
		}
	}
	return false
}

// truncateMessage cuts s to MaxNoteMessage bytes, on a UTF-8 boundary.
func truncateMessage(s string) string {
	if len(s) <= MaxNoteMessage {
		return s
	}
	i := MaxNoteMessage
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}

// take removes and returns the pending deltas.
func (b *Batcher) take() []Entry {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.pending) == 0 {
		return nil
	}
	out := make([]Entry, 0, len(b.pending))
	for _, e := range b.pending {
		out = append(out, *e)
	}
	b.pending = make(map[pairKey]*Entry, len(out))
	return out
}

// pendingCopy returns a copy of the deltas not yet confirmed written:
// pending and in doubt.
func (b *Batcher) pendingCopy() []Entry {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]Entry, 0, len(b.pending)+b.doubtN)
	for _, e := range b.pending {
		c := *e
		c.Days = append([]DayCount(nil), e.Days...) // record changes them in place
		out = append(out, c)
	}
	for _, d := range b.doubt {
		out = append(out, d.entries...)
	}
	return out
}

// localCopy returns what this replica knows: what it wrote to the store
// and what is not written yet.
func (b *Batcher) localCopy() []Entry {
	b.mu.Lock()
	out := make([]Entry, 0, len(b.local))
	for _, e := range b.local {
		out = append(out, *e)
	}
	b.mu.Unlock()
	return mergeEntries(out, b.pendingCopy())
}

// written folds deltas confirmed written into local, within MaxPending
// pairs.
func (b *Batcher) written(es []Entry) {
	if b.local == nil || len(es) == 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range es {
		k := keyOf(&e)
		if l, ok := b.local[k]; ok {
			l.merge(e)
		} else if len(b.local) < b.maxPending {
			c := e
			b.local[k] = &c
		}
	}
}

// confirmed returns the entries of sent not in notConfirmed.
func confirmed(sent, notConfirmed []Entry) []Entry {
	if len(notConfirmed) == 0 {
		return sent
	}
	skip := make(map[pairKey]bool, len(notConfirmed))
	for i := range notConfirmed {
		skip[keyOf(&notConfirmed[i])] = true
	}
	out := make([]Entry, 0, len(sent))
	for i := range sent {
		if !skip[keyOf(&sent[i])] {
			out = append(out, sent[i])
		}
	}
	return out
}

// Flush writes the pending deltas to the store, each batch at most once:
// batches whose outcome a failed flush left unknown are sent again first,
// unchanged and under their own id, and a failure keeps the new batch in
// doubt the same way.
func (b *Batcher) Flush(ctx context.Context) error {
	b.flushMu.Lock()
	defer b.flushMu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, b.flushTimeout)
	defer cancel()
	fail := func(err error) error {
		b.flushErrors.Add(1)
		if b.onFlushError != nil {
			b.onFlushError(err)
		}
		return err
	}
	for {
		b.mu.Lock()
		if len(b.doubt) == 0 {
			b.mu.Unlock()
			break
		}
		d := b.doubt[0]
		b.mu.Unlock()
		notConfirmed, err := b.store.Add(ctx, d.id, d.entries)
		b.written(confirmed(d.entries, notConfirmed))
		b.mu.Lock()
		b.doubtN -= len(d.entries) - len(notConfirmed)
		if len(notConfirmed) == 0 {
			b.doubt = b.doubt[1:]
		} else {
			b.doubt[0].entries = notConfirmed
		}
		b.mu.Unlock()
		if err != nil {
			return fail(err)
		}
	}
	deltas := b.take()
	if len(deltas) == 0 {
		return nil
	}
	id := newBatchID()
	notConfirmed, err := b.store.Add(ctx, id, deltas)
	b.written(confirmed(deltas, notConfirmed))
	if len(notConfirmed) > 0 {
		b.mu.Lock()
		b.doubt = append(b.doubt, doubtBatch{id: id, entries: notConfirmed})
		b.doubtN += len(notConfirmed)
		b.mu.Unlock()
	}
	if err != nil {
		return fail(err)
	}
	b.flushes.Add(1)
	return nil
}

// Run flushes every FlushInterval until ctx is done or Close is called,
// then flushes once more. It returns when that last flush is over.
func (b *Batcher) Run(ctx context.Context) {
	if !b.running.CompareAndSwap(false, true) {
		return
	}
	defer close(b.done)
	t := time.NewTicker(b.interval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			_ = b.Flush(context.Background())
		case <-ctx.Done():
			_ = b.Flush(context.Background())
			return
		case <-b.stop:
			_ = b.Flush(context.Background())
			return
		}
	}
}

// Close stops Run (waiting for its final flush) or, when Run was never
// started, flushes once. The error is the final flush's.
func (b *Batcher) Close(ctx context.Context) error {
	b.stopOnce.Do(func() { close(b.stop) })
	if b.running.Load() {
		select {
		case <-b.done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return b.Flush(ctx)
}

// Stats returns the Batcher's counters.
func (b *Batcher) Stats() Stats {
	b.mu.Lock()
	n := len(b.pending) + b.doubtN
	b.mu.Unlock()
	return Stats{Pending: n, Flushes: b.flushes.Load(), FlushErrors: b.flushErrors.Load(), Dropped: b.dropped.Load()}
}

// Entries flushes what is pending, then returns the store's entries. When
// the flush fails, the deltas still pending are merged into the answer so
// that this replica's calls are never missing from it.
func (b *Batcher) Entries(ctx context.Context) ([]Entry, error) {
	flushErr := b.Flush(ctx)
	es, err := b.store.Entries(ctx)
	if err != nil {
		return nil, err
	}
	if flushErr != nil {
		es = mergeEntries(es, b.pendingCopy())
	}
	return b.pruneHistory(es), nil
}

// pruneHistory drops the daily counts older than HistoryDays.
func (b *Batcher) pruneHistory(es []Entry) []Entry {
	from := firstKeptDay(DayOf(b.now()), b.historyDays)
	for i := range es {
		es[i].Days = pruneDays(es[i].Days, from)
	}
	return es
}

// Snapshot is Entries within timeout, or, when the store cannot be read
// in that time, what this replica knows (what it wrote and what it has
// not written yet), with partial set and the reason. It never waits longer
// than timeout, whatever the store does.
func (b *Batcher) Snapshot(ctx context.Context, timeout time.Duration) (es []Entry, partial bool, reason error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type result struct {
		es  []Entry
		err error
	}
	done := make(chan result, 1)
	go func() {
		es, err := b.Entries(ctx)
		done <- result{es, err}
	}()
	select {
	case r := <-done:
		if r.err == nil {
			return r.es, false, nil
		}
		return b.pruneHistory(b.localCopy()), true, r.err
	case <-ctx.Done():
		return b.pruneHistory(b.localCopy()), true, ctx.Err()
	}
}

// mergeEntries merges b into a, by key id, operation, note code and field.
func mergeEntries(a, b []Entry) []Entry {
	idx := make(map[pairKey]int, len(a))
	for i := range a {
		idx[keyOf(&a[i])] = i
	}
	for _, e := range b {
		if i, ok := idx[keyOf(&e)]; ok {
			a[i].merge(e)
			continue
		}
		idx[keyOf(&e)] = len(a)
		a = append(a, e)
	}
	return a
}

// MemoryStore is the single-replica Store. It keeps the daily counts of
// the last HistoryDays days before the newest day it was given.
type MemoryStore struct {
	mu          sync.Mutex
	entries     map[pairKey]*Entry
	historyDays int
	newest      Day
}

func (m *MemoryStore) setHistoryDays(n int) {
	m.mu.Lock()
	m.historyDays = n
	m.mu.Unlock()
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore { return &MemoryStore{entries: map[pairKey]*Entry{}} }

// Kind implements Store.
func (*MemoryStore) Kind() string { return "memory" }

// Add implements Store; it never fails.
func (m *MemoryStore) Add(_ context.Context, _ string, deltas []Entry) ([]Entry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	newest := m.newest
	for _, d := range deltas {
		if l := len(d.Days); l > 0 && d.Days[l-1].Day > newest {
			newest = d.Days[l-1].Day
		}
	}
	if newest > m.newest {
		// A new day: forget the days that left the window.
		m.newest = newest
		n := m.historyDays
		if n <= 0 {
			n = DefaultHistoryDays
		}
		from := firstKeptDay(newest, n)
		for _, e := range m.entries {
			e.Days = pruneDays(e.Days, from)
		}
	}
	for _, d := range deltas {
		k := keyOf(&d)
		if e, ok := m.entries[k]; ok {
			e.merge(d)
			continue
		}
		c := d
		m.entries[k] = &c
	}
	return nil, nil
}

// Entries implements Store.
func (m *MemoryStore) Entries(context.Context) ([]Entry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Entry, 0, len(m.entries))
	for _, e := range m.entries {
		out = append(out, *e)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].KeyID != out[j].KeyID {
			return out[i].KeyID < out[j].KeyID
		}
		if out[i].Op != out[j].Op {
			return out[i].Op < out[j].Op
		}
		if out[i].Code != out[j].Code {
			return out[i].Code < out[j].Code
		}
		return out[i].Field < out[j].Field
	})
	return out, nil
}

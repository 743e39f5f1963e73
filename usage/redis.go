package usage

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// DefaultRedisPrefix is the prefix of the usage keys in Redis:
//
//	<prefix>keys              set of every key id seen
//	<prefix>{<key id>}        hash: <op>:count, <op>:first, <op>:last (unix ms)
//	<prefix>notes:{<key id>}  hash: <op>|<code>:count, :first, :last, :msg
//	                          (compatibility notes, Entry.Code set), or
//	                          <op>|<code>|<field>:… for a note about one
//	                          field (Entry.Field set)
//	<prefix>days:{<key id>}   hash: <op>|<day>: calls that UTC day (days
//	                          since 1970-01-01), HistoryDays of them; _pruned:
//	                          the day old days were last deleted
//	<prefix>batch:{<key id>}:<batch>:<c|n>
//	                          marker of a batch applied to one of the two
//	                          hashes (a retried batch is applied at most
//	                          once); expires after a week
//
// The braces put every key of a key id in one Redis Cluster hash slot.
// Both hashes expire Retention after their last write, so that keys that
// stopped calling (and junk keys) leave the store.
const DefaultRedisPrefix = "v1gw:usage:"

// scriptHead makes a script idempotent per batch: KEYS[2] marks the batch
// as applied to KEYS[1] (SET NX, a week); a batch already marked is not
// applied again. ARGV[1] is the hash's retention in milliseconds.
const scriptHead = `
if not redis.call('SET', KEYS[2], '1', 'NX', 'PX', 604800000) then
  return 0
end
`

// addScript adds deltas to one key id's hash: for each (op, count, first,
// last, days) quintuple of ARGV after the retention, today and the history
// length, HINCRBY the count and keep the minimum first and the maximum
// last, atomically and once per batch. days ("<day>:<count>,…") go to the
// daily hash KEYS[3], whose days older than the history are deleted once
// a day (the first batch of a day scans the hash).
var addScript = redis.NewScript(scriptHead + `
local today = tonumber(ARGV[2])
local p = tonumber(redis.call('HGET', KEYS[3], '_pruned'))
if not p or p < today then
  local from = today - tonumber(ARGV[3]) + 1
  for _, f in ipairs(redis.call('HKEYS', KEYS[3])) do
    local m = string.match(f, '|(%d+)$')
    if m and tonumber(m) < from then
      redis.call('HDEL', KEYS[3], f)
    end
  end
  redis.call('HSET', KEYS[3], '_pruned', today)
end
for i = 4, #ARGV, 5 do
  local op = ARGV[i]
  redis.call('HINCRBY', KEYS[1], op .. ':count', ARGV[i + 1])
  local first = tonumber(ARGV[i + 2])
  local f = tonumber(redis.call('HGET', KEYS[1], op .. ':first'))
  if not f or first < f then
    redis.call('HSET', KEYS[1], op .. ':first', ARGV[i + 2])
  end
  local last = tonumber(ARGV[i + 3])
  local l = tonumber(redis.call('HGET', KEYS[1], op .. ':last'))
  if not l or last > l then
    redis.call('HSET', KEYS[1], op .. ':last', ARGV[i + 3])
  end
  for d, c in string.gmatch(ARGV[i + 4], '(%d+):(%d+)') do
    redis.call('HINCRBY', KEYS[3], op .. '|' .. d, c)
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[3], ARGV[1])
return 1
`)

// noteScript is addScript for notes: quintuples (field, count, first, last,
// message) where field is "<op>|<code>"; the message of the latest call
// is kept.
var noteScript = redis.NewScript(scriptHead + `
for i = 2, #ARGV, 5 do
  local f = ARGV[i]
  redis.call('HINCRBY', KEYS[1], f .. ':count', ARGV[i + 1])
  local first = tonumber(ARGV[i + 2])
  local cf = tonumber(redis.call('HGET', KEYS[1], f .. ':first'))
  if not cf or first < cf then
    redis.call('HSET', KEYS[1], f .. ':first', ARGV[i + 2])
  end
  local last = tonumber(ARGV[i + 3])
  local cl = tonumber(redis.call('HGET', KEYS[1], f .. ':last'))
  if not cl or last >= cl then
    redis.call('HSET', KEYS[1], f .. ':last', ARGV[i + 3])
    if ARGV[i + 4] ~= '' then
      redis.call('HSET', KEYS[1], f .. ':msg', ARGV[i + 4])
    end
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
`)

// RedisStore keeps the usage counts in Redis, shared by every replica. One
// flush is one pipeline: per key id, one script call and one SADD.
type RedisStore struct {
	client redis.UniversalClient
	prefix string
	// Retention is how long a key id's counts live after its last write
	// (default DefaultRetention).
	Retention time.Duration
	// HistoryDays is how many UTC days of daily counts are kept (default:
	// the Batcher's, else DefaultHistoryDays).
	HistoryDays int
	// Now is the clock that says which day is today (default time.Now).
	Now func() time.Time
}

// DefaultRetention keeps a key's counts a year after its last call: far
// beyond a migration, and still bounded for keys that never come back.
const DefaultRetention = 365 * 24 * time.Hour

// NewRedisStore returns a Store on client. prefix "" means
// DefaultRedisPrefix (tests use their own to stay apart).
func NewRedisStore(client redis.UniversalClient, prefix string) *RedisStore {
	if prefix == "" {
		prefix = DefaultRedisPrefix
	}
	return &RedisStore{client: client, prefix: prefix, Retention: DefaultRetention}
}

// Kind implements Store.
func (*RedisStore) Kind() string { return "redis" }

func (s *RedisStore) setKey() string { return s.prefix + "keys" }

func (s *RedisStore) hashKey(keyID string) string { return s.prefix + "{" + keyID + "}" }

func (s *RedisStore) notesKey(keyID string) string { return s.prefix + "notes:{" + keyID + "}" }

func (s *RedisStore) daysKey(keyID string) string { return s.prefix + "days:{" + keyID + "}" }

func (s *RedisStore) history() (today Day, days int) {
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	days = s.HistoryDays
	if days <= 0 {
		days = DefaultHistoryDays
	}
	return DayOf(now()), days
}

// daysArg encodes days as "<day>:<count>,…" for addScript.
func daysArg(days []DayCount) string {
	b := make([]byte, 0, 16*len(days))
	for i, d := range days {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(d.Day), 10)
		b = append(b, ':')
		b = strconv.AppendInt(b, d.Count, 10)
	}
	return string(b)
}

func (s *RedisStore) batchKey(keyID, batch, kind string) string {
	return s.prefix + "batch:{" + keyID + "}:" + batch + ":" + kind
}

func unixMs(t time.Time) int64 { return t.UnixMilli() }

// Add implements Store.
func (s *RedisStore) Add(ctx context.Context, batch string, deltas []Entry) ([]Entry, error) {
	if len(deltas) == 0 {
		return nil, nil
	}
	byKey := map[string][]Entry{}
	var keys []string
	for _, d := range deltas {
		if _, ok := byKey[d.KeyID]; !ok {
			keys = append(keys, d.KeyID)
		}
		byKey[d.KeyID] = append(byKey[d.KeyID], d)
	}
	sort.Strings(keys)
	type sent struct {
		cmd, noteCmd *redis.Cmd
		add          *redis.IntCmd
		calls, notes []Entry
	}
	sents := make([]sent, 0, len(keys))
	retention := s.Retention
	if retention <= 0 {
		retention = DefaultRetention
	}
	retentionMs := retention.Milliseconds()
	today, historyDays := s.history()
	pipe := s.client.Pipeline()
	for _, k := range keys {
		var b sent
		args, noteArgs := []any{retentionMs, int64(today), historyDays}, []any{retentionMs}
		for _, e := range byKey[k] {
			if e.Code != "" {
				b.notes = append(b.notes, e)
				noteArgs = append(noteArgs, noteField(e), e.Count, unixMs(e.First), unixMs(e.Last), e.Message)
				continue
			}
			b.calls = append(b.calls, e)
			args = append(args, e.Op, e.Count, unixMs(e.First), unixMs(e.Last), daysArg(e.Days))
		}
		// EVAL rather than EVALSHA: a pipeline cannot fall back after
		// NOSCRIPT, and Redis caches the script by its hash anyway.
		if len(b.calls) > 0 {
			b.cmd = addScript.Eval(ctx, pipe, []string{s.hashKey(k), s.batchKey(k, batch, "c"), s.daysKey(k)}, args...)
		}
		if len(b.notes) > 0 {
			b.noteCmd = noteScript.Eval(ctx, pipe, []string{s.notesKey(k), s.batchKey(k, batch, "n")}, noteArgs...)
		}
		b.add = pipe.SAdd(ctx, s.setKey(), k)
		sents = append(sents, b)
	}
	_, err := pipe.Exec(ctx)
	if err == nil {
		return nil, nil
	}
	var notApplied []Entry
	var firstErr error
	fail := func(e error) {
		if firstErr == nil {
			firstErr = e
		}
	}
	for _, b := range sents {
		// A script either runs whole or not at all; an unanswered one is
		// retried under the same batch id, which its marker makes a no-op
		// if it had run: a lost reply counts nothing twice.
		appliedAll := true
		for _, part := range []struct {
			cmd *redis.Cmd
			es  []Entry
		}{{b.cmd, b.calls}, {b.noteCmd, b.notes}} {
			if part.cmd == nil {
				continue
			}
			if e := part.cmd.Err(); e != nil {
				notApplied = append(notApplied, part.es...)
				fail(e)
				appliedAll = false
			}
		}
		if !appliedAll {
			continue
		}
		if e := b.add.Err(); e != nil {
			// The counts are in; only the key id's membership in the set
			// is missing. Retry it with a zero delta.
			for _, x := range append(b.calls, b.notes...) {
				notApplied = append(notApplied, Entry{KeyID: x.KeyID, Op: x.Op, Code: x.Code, Field: x.Field, First: x.First, Last: x.Last})
			}
			fail(e)
		}
	}
	if firstErr == nil {
		firstErr = err
	}
	return notApplied, fmt.Errorf("usage: writing to Redis: %w", firstErr)
}

// Entries implements Store.
func (s *RedisStore) Entries(ctx context.Context) ([]Entry, error) {
	ids, err := s.client.SMembers(ctx, s.setKey()).Result()
	if err != nil {
		return nil, fmt.Errorf("usage: reading from Redis: %w", err)
	}
	sort.Strings(ids)
	pipe := s.client.Pipeline()
	cmds := make([]*redis.MapStringStringCmd, len(ids))
	notes := make([]*redis.MapStringStringCmd, len(ids))
	days := make([]*redis.MapStringStringCmd, len(ids))
	for i, id := range ids {
		cmds[i] = pipe.HGetAll(ctx, s.hashKey(id))
		notes[i] = pipe.HGetAll(ctx, s.notesKey(id))
		days[i] = pipe.HGetAll(ctx, s.daysKey(id))
	}
	if len(ids) > 0 {
		if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
			return nil, fmt.Errorf("usage: reading from Redis: %w", err)
		}
	}
	var out []Entry
	var gone []any
	for i, id := range ids {
		c, n := cmds[i].Val(), notes[i].Val()
		if len(c) == 0 && len(n) == 0 {
			gone = append(gone, id) // both hashes expired (Retention)
			continue
		}
		calls := parseHash(id, c, false)
		addParsedDays(calls, days[i].Val())
		out = append(out, calls...)
		out = append(out, parseHash(id, n, true)...)
	}
	if len(gone) > 0 {
		// Best effort: a key id that writes again is added back.
		_ = s.client.SRem(ctx, s.setKey(), gone...).Err()
	}
	return out, nil
}

// noteField is the notes-hash field of a note: "<op>|<code>", or
// "<op>|<code>|<field>" for a note about one field (operations, codes and
// field names hold no '|' or ':').
func noteField(e Entry) string {
	if e.Field != "" {
		return e.Op + "|" + e.Code + "|" + e.Field
	}
	return e.Op + "|" + e.Code
}

// parseHash turns one key id's hash into entries, sorted by operation (and
// code and field). notes: the hash is the notes hash, whose fields are
// noteField's.
func parseHash(keyID string, h map[string]string, notes bool) []Entry {
	byOp := map[string]*Entry{}
	get := func(field string) *Entry {
		e, ok := byOp[field]
		if !ok {
			e = &Entry{KeyID: keyID, Op: field}
			if notes {
				j := strings.IndexByte(field, '|')
				e.Op, e.Code = field[:j], field[j+1:]
				e.Code, e.Field, _ = strings.Cut(e.Code, "|")
			}
			byOp[field] = e
		}
		return e
	}
	for field, val := range h {
		i := strings.LastIndexByte(field, ':')
		if i <= 0 {
			continue
		}
		op, what := field[:i], field[i+1:]
		if notes && strings.IndexByte(op, '|') <= 0 {
			continue
		}
		if what == "msg" {
			if notes {
				get(op).Message = val
			}
			continue
		}
		n, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			continue
		}
		switch what {
		case "count":
			get(op).Count = n
		case "first":
			get(op).First = time.UnixMilli(n).UTC()
		case "last":
			get(op).Last = time.UnixMilli(n).UTC()
		}
	}
	out := make([]Entry, 0, len(byOp))
	for _, e := range byOp {
		if e.Count > 0 {
			out = append(out, *e)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Op != out[j].Op {
			return out[i].Op < out[j].Op
		}
		if out[i].Code != out[j].Code {
			return out[i].Code < out[j].Code
		}
		return out[i].Field < out[j].Field
	})
	return out
}

// addParsedDays sets the Days of calls (one key id's call entries, sorted
// by operation) from its daily hash.
func addParsedDays(calls []Entry, h map[string]string) {
	if len(h) == 0 {
		return
	}
	idx := make(map[string]int, len(calls))
	for i := range calls {
		idx[calls[i].Op] = i
	}
	for field, val := range h {
		j := strings.LastIndexByte(field, '|')
		if j <= 0 {
			continue
		}
		i, ok := idx[field[:j]]
		if !ok {
			continue
		}
		d, err1 := strconv.ParseInt(field[j+1:], 10, 64)
		n, err2 := strconv.ParseInt(val, 10, 64)
		if err1 != nil || err2 != nil || n <= 0 {
			continue
		}
		calls[i].Days = addDay(calls[i].Days, Day(d), n)
	}
}

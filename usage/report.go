package usage

import (
	"encoding/csv"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Report is the migration report served at GET /usage.
type Report struct {
	GeneratedAt time.Time `json:"generated_at"`
	// Store says where the counts come from: "redis" (every replica
	// sharing V1GW_REDIS_URL) or "memory" (this process only, since it
	// started).
	Store string `json:"store"`
	// Partial is set when the shared store could not be read in time: the
	// report then holds only what the replica that answered knows.
	Partial       bool   `json:"partial,omitempty"`
	PartialReason string `json:"partial_reason,omitempty"`
	// HistoryDays is the window of the daily counts, in UTC days
	// (usage_history_days; 0 when not known).
	HistoryDays int        `json:"history_days,omitempty"`
	Summary     Summary    `json:"summary"`
	Keys        []KeyUsage `json:"keys"`
	// NamedKeysWithoutCalls lists the key ids labelled in key_names that
	// have no recorded call at all.
	NamedKeysWithoutCalls []NamedKey `json:"named_keys_without_calls"`
}

// Summary answers "can the gateway be switched off yet?".
type Summary struct {
	TotalV1Calls int64 `json:"total_v1_calls"`
	// KeysCallingV1 counts the key ids with at least one v1 call ever;
	// the next two those with one in the last 24 hours and 7 days.
	KeysCallingV1        int        `json:"keys_calling_v1"`
	KeysCallingV1Last24h int        `json:"keys_calling_v1_last_24h"`
	KeysCallingV1Last7d  int        `json:"keys_calling_v1_last_7d"`
	LastV1Call           *time.Time `json:"last_v1_call"`
	// DailyV1Calls are the v1 calls of every key per UTC day, oldest
	// first (days without calls left out).
	DailyV1Calls        []DayCount `json:"daily_v1_calls"`
	TotalV2PassThrough  int64      `json:"total_v2_passthrough_calls"`
	KeysV2PassThrough7d int        `json:"keys_using_v2_passthrough_last_7d"`
	TotalGraphQL        int64      `json:"total_graphql_calls"`
	KeysGraphQL7d       int        `json:"keys_using_graphql_last_7d"`
	Operations          []OpTotal  `json:"operations"`
	V1OperationsLast7d  int        `json:"v1_operations_called_last_7d"`
	V1OperationsEver    int        `json:"v1_operations_ever_called"`
	// Notes are the compatibility notes given (warnings, lenient drops,
	// emulations, refusals; P7a), one per code, most recent first.
	Notes []NoteTotal `json:"compat_notes"`
	// KeysWithNotes7d counts the key ids given a note in the last 7 days:
	// clients that depend on lossy or emulated behaviour.
	KeysWithNotes7d int `json:"keys_with_compat_notes_last_7d"`
}

// NoteTotal is one note code's count across every key and operation.
type NoteTotal struct {
	Code     string    `json:"code"`
	Count    int64     `json:"count"`
	Keys     int       `json:"keys"`
	LastSeen time.Time `json:"last_seen"`
	// Fields split the count of a code given about single fields (a
	// refused minRAMPerGPU) by field, most counted first.
	Fields []FieldTotal `json:"fields,omitempty"`
}

// FieldTotal is how often one note code was given about one field, to how
// many key ids.
type FieldTotal struct {
	Field string `json:"field"`
	Count int64  `json:"count"`
	Keys  int    `json:"keys"`
}

// NoteUsage is how often one key id was given one kind of note in one v1
// operation, with the latest message.
type NoteUsage struct {
	Operation string `json:"operation"`
	Code      string `json:"code"`
	// Field is the v1 field the note is about (a refusal or a drop of one
	// field), "" for a note about no single field.
	Field       string    `json:"field,omitempty"`
	Count       int64     `json:"count"`
	FirstSeen   time.Time `json:"first_seen"`
	LastSeen    time.Time `json:"last_seen"`
	LastMessage string    `json:"last_message"`
}

// OpTotal is one v1 operation's usage across every key.
type OpTotal struct {
	Operation string    `json:"operation"`
	Count     int64     `json:"count"`
	Keys      int       `json:"keys"`
	LastSeen  time.Time `json:"last_seen"`
}

// KeyUsage is one key id's usage.
type KeyUsage struct {
	KeyID     string     `json:"key_id"`
	Name      string     `json:"name,omitempty"`
	V1Calls   int64      `json:"v1_calls"`
	FirstSeen *time.Time `json:"first_v1_call,omitempty"`
	LastSeen  *time.Time `json:"last_v1_call,omitempty"`
	// DailyV1Calls are the key's v1 calls per UTC day, oldest first.
	DailyV1Calls []DayCount `json:"daily_v1_calls"`
	// Operations are the v1 operations, most recently called first.
	Operations []OpUsage `json:"operations"`
	// V2PassThrough counts the key's /v2 calls through the gateway.
	V2PassThrough *OpUsage `json:"v2_passthrough,omitempty"`
	// GraphQL counts the key's /graphql calls through the gateway.
	GraphQL *OpUsage `json:"graphql,omitempty"`
	// GraphQLFields counts, per root field, the GraphQL the gateway
	// answered from v2 (its translating door), most recent first.
	GraphQLFields []OpUsage `json:"graphql_fields,omitempty"`
	// Notes are the compatibility notes the key was given, per operation
	// and code, most recent first.
	Notes []NoteUsage `json:"compat_notes"`
}

// OpUsage is one operation's usage by one key id.
type OpUsage struct {
	Operation string    `json:"operation"`
	Count     int64     `json:"count"`
	FirstSeen time.Time `json:"first_seen"`
	LastSeen  time.Time `json:"last_seen"`
	// Daily are the calls per UTC day, oldest first.
	Daily []DayCount `json:"daily,omitempty"`
}

// NamedKey is a labelled key id.
type NamedKey struct {
	KeyID string `json:"key_id"`
	Name  string `json:"name"`
}

// BuildReport builds the report of entries at now. names maps key ids to
// the operator's labels (config key_names). Keys are sorted by their last
// v1 call, most recent first; keys that only used the /v2 pass-through
// come last, by their last call.
func BuildReport(entries []Entry, names map[string]string, store string, now time.Time) *Report {
	r := &Report{GeneratedAt: now.UTC(), Store: store, Keys: []KeyUsage{}, NamedKeysWithoutCalls: []NamedKey{}}
	r.Summary.Operations = []OpTotal{}
	r.Summary.Notes = []NoteTotal{}
	r.Summary.DailyV1Calls = []DayCount{}
	byKey := map[string]*KeyUsage{}
	opTotals := map[string]*OpTotal{}
	noteTotals := map[string]*NoteTotal{}
	noteKeys7d := map[string]bool{}
	day, week := now.Add(-24*time.Hour), now.Add(-7*24*time.Hour)
	for _, e := range entries {
		if e.Count <= 0 || e.KeyID == "" {
			continue
		}
		k, ok := byKey[e.KeyID]
		if !ok {
			k = &KeyUsage{KeyID: e.KeyID, Name: names[e.KeyID], Operations: []OpUsage{}, Notes: []NoteUsage{}, DailyV1Calls: []DayCount{}}
			byKey[e.KeyID] = k
		}
		if e.Code != "" {
			k.Notes = append(k.Notes, NoteUsage{Operation: e.Op, Code: e.Code, Field: e.Field, Count: e.Count,
				FirstSeen: e.First.UTC(), LastSeen: e.Last.UTC(), LastMessage: e.Message})
			t, ok := noteTotals[e.Code]
			if !ok {
				t = &NoteTotal{Code: e.Code}
				noteTotals[e.Code] = t
			}
			t.Count += e.Count
			if e.Last.After(t.LastSeen) {
				t.LastSeen = e.Last.UTC()
			}
			if e.Last.After(week) {
				noteKeys7d[e.KeyID] = true
			}
			continue
		}
		u := OpUsage{Operation: e.Op, Count: e.Count, FirstSeen: e.First.UTC(), LastSeen: e.Last.UTC(), Daily: e.Days}
		switch e.Op {
		case PassThrough:
			k.V2PassThrough = mergeOpUsage(k.V2PassThrough, u)
			r.Summary.TotalV2PassThrough += e.Count
			continue
		case GraphQL:
			k.GraphQL = mergeOpUsage(k.GraphQL, u)
			r.Summary.TotalGraphQL += e.Count
			continue
		}
		if strings.HasPrefix(e.Op, graphQLFieldPrefix) {
			u.Operation = strings.TrimPrefix(e.Op, graphQLFieldPrefix)
			k.GraphQLFields = append(k.GraphQLFields, u)
			continue
		}
		k.Operations = append(k.Operations, u)
		k.V1Calls += e.Count
		k.DailyV1Calls = mergeDays(k.DailyV1Calls, e.Days)
		r.Summary.DailyV1Calls = mergeDays(r.Summary.DailyV1Calls, e.Days)
		if k.FirstSeen == nil || u.FirstSeen.Before(*k.FirstSeen) {
			f := u.FirstSeen
			k.FirstSeen = &f
		}
		if k.LastSeen == nil || u.LastSeen.After(*k.LastSeen) {
			l := u.LastSeen
			k.LastSeen = &l
		}
		t, ok := opTotals[e.Op]
		if !ok {
			t = &OpTotal{Operation: e.Op}
			opTotals[e.Op] = t
		}
		t.Count += e.Count
		t.Keys++
		if u.LastSeen.After(t.LastSeen) {
			t.LastSeen = u.LastSeen
		}
		r.Summary.TotalV1Calls += e.Count
	}
	for _, k := range byKey {
		for _, ops := range [][]OpUsage{k.Operations, k.GraphQLFields} {
			sort.Slice(ops, func(i, j int) bool {
				a, b := ops[i], ops[j]
				if !a.LastSeen.Equal(b.LastSeen) {
					return a.LastSeen.After(b.LastSeen)
				}
				return a.Operation < b.Operation
			})
		}
		if k.LastSeen != nil {
			r.Summary.KeysCallingV1++
			if k.LastSeen.After(day) {
				r.Summary.KeysCallingV1Last24h++
			}
			if k.LastSeen.After(week) {
				r.Summary.KeysCallingV1Last7d++
			}
			if r.Summary.LastV1Call == nil || k.LastSeen.After(*r.Summary.LastV1Call) {
				l := *k.LastSeen
				r.Summary.LastV1Call = &l
			}
		}
		if k.V2PassThrough != nil && k.V2PassThrough.LastSeen.After(week) {
			r.Summary.KeysV2PassThrough7d++
		}
		if k.GraphQL != nil && k.GraphQL.LastSeen.After(week) {
			r.Summary.KeysGraphQL7d++
		}
		keysOfCode := map[string]bool{}
		for _, n := range k.Notes {
			if !keysOfCode[n.Code] {
				keysOfCode[n.Code] = true
				noteTotals[n.Code].Keys++
			}
			if n.Field == "" {
				continue
			}
			t := noteTotals[n.Code]
			i := slices.IndexFunc(t.Fields, func(f FieldTotal) bool { return f.Field == n.Field })
			if i < 0 {
				i = len(t.Fields)
				t.Fields = append(t.Fields, FieldTotal{Field: n.Field})
			}
			t.Fields[i].Count += n.Count
			if !keysOfCode[n.Code+"|"+n.Field] {
				keysOfCode[n.Code+"|"+n.Field] = true
				t.Fields[i].Keys++
			}
		}
		sort.Slice(k.Notes, func(i, j int) bool {
			a, b := k.Notes[i], k.Notes[j]
			if !a.LastSeen.Equal(b.LastSeen) {
				return a.LastSeen.After(b.LastSeen)
			}
			if a.Operation != b.Operation {
				return a.Operation < b.Operation
			}
			if a.Code != b.Code {
				return a.Code < b.Code
			}
			return a.Field < b.Field
		})
		r.Keys = append(r.Keys, *k)
	}
	sort.Slice(r.Keys, func(i, j int) bool {
		a, b := r.Keys[i], r.Keys[j]
		if (a.LastSeen == nil) != (b.LastSeen == nil) {
			return a.LastSeen != nil
		}
		if a.LastSeen != nil && !a.LastSeen.Equal(*b.LastSeen) {
			return a.LastSeen.After(*b.LastSeen)
		}
		if a.LastSeen == nil {
			la, lb := a.lastOther(), b.lastOther()
			if !la.Equal(lb) {
				return la.After(lb)
			}
		}
		return a.KeyID < b.KeyID
	})
	for _, t := range opTotals {
		r.Summary.Operations = append(r.Summary.Operations, *t)
		if t.LastSeen.After(week) {
			r.Summary.V1OperationsLast7d++
		}
	}
	r.Summary.V1OperationsEver = len(opTotals)
	for _, t := range noteTotals {
		sort.Slice(t.Fields, func(i, j int) bool {
			a, b := t.Fields[i], t.Fields[j]
			if a.Count != b.Count {
				return a.Count > b.Count
			}
			return a.Field < b.Field
		})
		r.Summary.Notes = append(r.Summary.Notes, *t)
	}
	sort.Slice(r.Summary.Notes, func(i, j int) bool {
		a, b := r.Summary.Notes[i], r.Summary.Notes[j]
		if !a.LastSeen.Equal(b.LastSeen) {
			return a.LastSeen.After(b.LastSeen)
		}
		return a.Code < b.Code
	})
	r.Summary.KeysWithNotes7d = len(noteKeys7d)
	sort.Slice(r.Summary.Operations, func(i, j int) bool {
		a, b := r.Summary.Operations[i], r.Summary.Operations[j]
		if !a.LastSeen.Equal(b.LastSeen) {
			return a.LastSeen.After(b.LastSeen)
		}
		return a.Operation < b.Operation
	})
	for id, name := range names {
		if _, ok := byKey[id]; !ok {
			r.NamedKeysWithoutCalls = append(r.NamedKeysWithoutCalls, NamedKey{KeyID: id, Name: name})
		}
	}
	sort.Slice(r.NamedKeysWithoutCalls, func(i, j int) bool {
		return r.NamedKeysWithoutCalls[i].KeyID < r.NamedKeysWithoutCalls[j].KeyID
	})
	return r
}

// mergeOpUsage adds u to *p (nil: u itself).
func mergeOpUsage(p *OpUsage, u OpUsage) *OpUsage {
	if p == nil {
		return &u
	}
	p.Count += u.Count
	p.Daily = mergeDays(p.Daily, u.Daily)
	if u.FirstSeen.Before(p.FirstSeen) {
		p.FirstSeen = u.FirstSeen
	}
	if u.LastSeen.After(p.LastSeen) {
		p.LastSeen = u.LastSeen
	}
	return p
}

// lastOther is the last call of a key without v1 calls: its latest /v2 or
// /graphql pass-through call (zero if it has none).
func (k *KeyUsage) lastOther() time.Time {
	var t time.Time
	for _, u := range []*OpUsage{k.V2PassThrough, k.GraphQL} {
		if u != nil && u.LastSeen.After(t) {
			t = u.LastSeen
		}
	}
	return t
}

// CSVHeader is the first row of WriteCSV.
var CSVHeader = []string{"key_id", "name", "operation", "count", "first_seen", "last_seen"}

// WriteCSV writes one row per key id and operation (the /v2 pass-through
// as operation "v2-passthrough", /graphql as "graphql"), in the report's
// order, times in RFC 3339 UTC. Notes are in WriteNotesCSV.
func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	row := func(k KeyUsage, u OpUsage) error {
		return cw.Write([]string{k.KeyID, csvSafe(k.Name), u.Operation, strconv.FormatInt(u.Count, 10),
			u.FirstSeen.UTC().Format(time.RFC3339), u.LastSeen.UTC().Format(time.RFC3339)})
	}
	for _, k := range r.Keys {
		for _, u := range k.Operations {
			if err := row(k, u); err != nil {
				return err
			}
		}
		for _, u := range []*OpUsage{k.V2PassThrough, k.GraphQL} {
			if u != nil {
				if err := row(k, *u); err != nil {
					return err
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// NotesCSVHeader is the first row of WriteNotesCSV.
var NotesCSVHeader = []string{"key_id", "name", "operation", "code", "field", "count", "first_seen", "last_seen", "last_message"}

// WriteNotesCSV writes one row per key id, operation, note code and field
// ("" for a note about no single field), in the report's order (keys as in
// WriteCSV, each key's notes most recent first), times in RFC 3339 UTC.
func (r *Report) WriteNotesCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(NotesCSVHeader); err != nil {
		return err
	}
	for _, k := range r.Keys {
		for _, n := range k.Notes {
			if err := cw.Write([]string{k.KeyID, csvSafe(k.Name), n.Operation, n.Code, n.Field, strconv.FormatInt(n.Count, 10),
				n.FirstSeen.UTC().Format(time.RFC3339), n.LastSeen.UTC().Format(time.RFC3339), csvSafe(n.LastMessage)}); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvSafe keeps a spreadsheet from reading a label as a formula.
func csvSafe(s string) string {
	if s != "" && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@') {
		return "'" + s
	}
	return s
}

// DailyCSVHeader is the first row of WriteDailyCSV.
var DailyCSVHeader = []string{"key_id", "name", "operation", "day", "count"}

// WriteDailyCSV writes one row per key id, operation (the pass-throughs
// included, as in WriteCSV) and UTC day with calls, in the report's key
// order, days oldest first.
func (r *Report) WriteDailyCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(DailyCSVHeader); err != nil {
		return err
	}
	for _, k := range r.Keys {
		ops := append([]OpUsage(nil), k.Operations...)
		for _, u := range []*OpUsage{k.V2PassThrough, k.GraphQL} {
			if u != nil {
				ops = append(ops, *u)
			}
		}
		for _, u := range ops {
			for _, d := range u.Daily {
				if err := cw.Write([]string{k.KeyID, csvSafe(k.Name), u.Operation, d.Day.String(), strconv.FormatInt(d.Count, 10)}); err != nil {
					return err
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

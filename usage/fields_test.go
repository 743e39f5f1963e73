package usage

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Notes about one field (a refusal of minRAMPerGPU, a drop of
// dockerEntrypoint) are counted per key id, operation, code and field
// (issue 29 item 3), and the report shows the field in its JSON, CSV and
// page.
func TestNotesAreCountedPerField(t *testing.T) {
	clk := &clock{t: t0}
	b := New(Options{Now: clk.now})
	b.RecordFieldNote("k1", "CreatePod", "untranslatable_refused", "minRAMPerGPU", "refused minRAMPerGPU")
	clk.add(time.Minute)
	b.RecordFieldNote("k1", "CreatePod", "untranslatable_refused", "minRAMPerGPU", "refused minRAMPerGPU again")
	b.RecordFieldNote("k1", "CreatePod", "untranslatable_refused", "dockerEntrypoint", "refused dockerEntrypoint")
	b.RecordFieldNote("k2", "CreatePod", "untranslatable_refused", "minRAMPerGPU", "refused")
	b.RecordNote("k1", "CreatePod", "untranslatable_refused", "no field")
	b.RecordFieldNote("k1", "CreatePod", "untranslatable_refused", "a|b:c", "a name the store cannot keep apart is dropped")
	if err := b.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	es, err := b.Entries(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checkFieldEntries(t, es)

	r := BuildReport(es, nil, "memory", clk.t)
	var k1 KeyUsage
	for _, k := range r.Keys {
		if k.KeyID == "k1" {
			k1 = k
		}
	}
	var ram NoteUsage
	for _, n := range k1.Notes {
		if n.Field == "minRAMPerGPU" {
			ram = n
		}
	}
	if len(k1.Notes) != 3 || ram.Count != 2 || ram.LastMessage != "refused minRAMPerGPU again" || ram.Operation != "CreatePod" {
		t.Fatalf("k1 notes %+v", k1.Notes)
	}
	if len(r.Summary.Notes) != 1 {
		t.Fatalf("note totals %+v", r.Summary.Notes)
	}
	tot := r.Summary.Notes[0]
	if tot.Count != 6 || tot.Keys != 2 || len(tot.Fields) != 2 ||
		tot.Fields[0] != (FieldTotal{Field: "minRAMPerGPU", Count: 3, Keys: 2}) || tot.Fields[1] != (FieldTotal{Field: "dockerEntrypoint", Count: 1, Keys: 1}) {
		t.Fatalf("total %+v", tot)
	}
	j, _ := json.Marshal(r)
	for _, f := range []string{`"code":"untranslatable_refused","field":"minRAMPerGPU","count":2`,
		`"fields":[{"field":"minRAMPerGPU","count":3,"keys":2},{"field":"dockerEntrypoint","count":1,"keys":1}]`} {
		if !bytes.Contains(j, []byte(f)) {
			t.Errorf("JSON lacks %s: %s", f, j)
		}
	}
	var buf bytes.Buffer
	if err := r.WriteNotesCSV(&buf); err != nil {
		t.Fatal(err)
	}
	rows, _ := csv.NewReader(&buf).ReadAll()
	if strings.Join(rows[0], ",") != "key_id,name,operation,code,field,count,first_seen,last_seen,last_message" {
		t.Fatalf("header %q", rows[0])
	}
	found := false
	for _, row := range rows[1:] {
		if row[0] == "k1" && row[4] == "minRAMPerGPU" && row[5] == "2" {
			found = true
		}
	}
	if !found {
		t.Errorf("no CSV row for k1's minRAMPerGPU refusals: %q", rows)
	}
	buf.Reset()
	if err := r.WritePage(&buf, PageOptions{}); err != nil {
		t.Fatal(err)
	}
	page := parsePage(t, buf.Bytes())
	text := page.allText()
	for _, want := range []string{"(minRAMPerGPU) in CreatePod", "minRAMPerGPU ×3"} {
		if !strings.Contains(text, want) {
			t.Errorf("the page does not show %q", want)
		}
	}
}

func checkFieldEntries(t *testing.T, es []Entry) {
	t.Helper()
	got := map[string]int64{}
	for _, e := range es {
		if e.Code != "" {
			got[e.KeyID+" "+e.Op+" "+e.Code+" "+e.Field] = e.Count
		}
	}
	want := map[string]int64{
		"k1 CreatePod untranslatable_refused minRAMPerGPU":     2,
		"k1 CreatePod untranslatable_refused dockerEntrypoint": 1,
		"k2 CreatePod untranslatable_refused minRAMPerGPU":     1,
		"k1 CreatePod untranslatable_refused ":                 2,
	}
	if len(got) != len(want) {
		t.Fatalf("note entries %v, want %v", got, want)
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s: %d, want %d (all: %v)", k, got[k], n, got)
		}
	}
}

// fieldStoreTests: a Redis store keeps the field of a note apart, and
// still reads notes written before fields existed ("<op>|<code>").
func fieldStoreTests(t *testing.T, newClient func() redis.UniversalClient) {
	t.Run("notes keep their field", func(t *testing.T) {
		client := newClient()
		prefix := randomPrefix(t)
		t.Cleanup(func() { deletePrefix(t, client, prefix) })
		store := NewRedisStore(client, prefix)
		// A note written by a gateway without fields.
		ctx := context.Background()
		if err := client.HSet(ctx, prefix+"notes:{k1}", "CreatePod|untranslatable_refused:count", "1",
			"CreatePod|untranslatable_refused:first", t0.UnixMilli(), "CreatePod|untranslatable_refused:last", t0.UnixMilli()).Err(); err != nil {
			t.Fatal(err)
		}
		if err := client.SAdd(ctx, prefix+"keys", "k1").Err(); err != nil {
			t.Fatal(err)
		}
		b := New(Options{Store: store, Now: (&clock{t: t0}).now})
		b.RecordFieldNote("k1", "CreatePod", "untranslatable_refused", "minRAMPerGPU", "m")
		b.RecordFieldNote("k1", "CreatePod", "untranslatable_refused", "minRAMPerGPU", "m")
		b.RecordFieldNote("k1", "CreatePod", "untranslatable_refused", "dockerEntrypoint", "m")
		b.RecordFieldNote("k2", "CreatePod", "untranslatable_refused", "minRAMPerGPU", "m")
		b.RecordNote("k1", "CreatePod", "untranslatable_refused", "m")
		if err := b.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		es, err := store.Entries(ctx)
		if err != nil {
			t.Fatal(err)
		}
		checkFieldEntries(t, es)
	})
}

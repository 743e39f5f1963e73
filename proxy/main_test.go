package proxy

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/v1gateway/v1gateway/translate"
	"github.com/v1gateway/v1gateway/v2sim"
)

// TestMain checks, across every test of the package, that each v2 call a
// plan makes is one its operation declares in the table (translate.Operation
// V2): the table feeds the generated OpenAPI document (x-v2-calls) and the
// docs, so it must not understate what the gateway does upstream.
func TestMain(m *testing.M) {
	var mu sync.Mutex
	undeclared := map[string]bool{}
	patterns := map[*translate.Operation][]*regexp.Regexp{}
	inTable := map[*translate.Operation]bool{}
	for i := range translate.Operations {
		op := &translate.Operations[i]
		inTable[op] = true
		for _, c := range op.V2 {
			method, path, _ := strings.Cut(c, " ")
			re := regexp.QuoteMeta(path)
			re = regexp.MustCompile(`\\\{[A-Za-z]+\\\}`).ReplaceAllString(re, `[^/]+`)
			patterns[op] = append(patterns[op], regexp.MustCompile("^"+regexp.QuoteMeta(method)+" "+re+"$"))
		}
	}
	callObserver = func(op *translate.Operation, call translate.V2Call) {
		if !inTable[op] {
			return // an operation made up by a test
		}
		got := call.Method + " " + call.Path
		for _, re := range patterns[op] {
			if re.MatchString(got) {
				return
			}
		}
		mu.Lock()
		undeclared[op.Name+": "+got] = true
		mu.Unlock()
	}
	code := m.Run()
	if code == 0 && len(undeclared) > 0 {
		list := make([]string, 0, len(undeclared))
		for k := range undeclared {
			list = append(list, k)
		}
		sort.Strings(list)
		fmt.Fprintf(os.Stderr, "FAIL: v2 calls not declared in translate.Operations[].V2:\n  %s\n", strings.Join(list, "\n  "))
		code = 1
	}
	os.Exit(code)
}

// simReading is a set of the simulator's readings of the v2 document (see
// v2sim.Options): where the document is ambiguous, the end-to-end tests of
// templates, endpoints, registries and volumes run under each.
type simReading struct {
	name string
	opts v2sim.Options
}

// apply sets the readings on the simulator's options (for e2eOpts.sim).
func (r simReading) apply(o *v2sim.Options) {
	o.EndpointTemplate, o.PodTemplate, o.DataCenters = r.opts.EndpointTemplate, r.opts.PodTemplate, r.opts.DataCenters
}

// podTemplateShown: pods show (and are blocked by) their template.
func (r simReading) podTemplateShown() bool { return r.opts.PodTemplate == v2sim.PodTemplateVisible }

// strictDataCenters: dataCenterIds are a filter, not preferences.
func (r simReading) strictDataCenters() bool { return r.opts.DataCenters == v2sim.DataCentersStrict }

// simReadings: the default readings, and each other reading.
var simReadings = []simReading{
	{"copy,null,preferred", v2sim.Options{}}, // the defaults
	{"caller,visible,strict", v2sim.Options{
		EndpointTemplate: v2sim.EndpointTemplateCaller, PodTemplate: v2sim.PodTemplateVisible, DataCenters: v2sim.DataCentersStrict}},
}

// underEachReading runs test once per simReadings entry, as a subtest.
func underEachReading(t *testing.T, test func(t *testing.T, r simReading)) {
	for _, r := range simReadings {
		t.Run(r.name, func(t *testing.T) { test(t, r) })
	}
}

package bench

import (
	"cmp"
	"maps"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// Load comes from vegeta's library (github.com/tsenart/vegeta/v12/lib):
// its attacker keeps a fixed number of workers busy for the maximum
// throughput (closed loop) or paces requests at a fixed rate (open loop,
// adding workers as needed so that a slow server cannot slow the clock
// down: latencies include queueing, no coordinated omission). Response
// bodies are drained but not kept (MaxBody(0)), so that the client's memory
// traffic does not depend on the answer size. Percentiles are computed
// exactly from every latency, not estimated.

// Target is one request, sent over and over.
type Target struct {
	Method string
	URL    string
	Body   []byte
	Header http.Header
}

// Load is one attack: Rate 0 means as fast as Concurrency workers go.
type Load struct {
	Rate        int // requests per second; 0: maximum throughput
	Concurrency int // workers (maximum throughput) or initial workers (rate)
	Warmup      time.Duration
	Duration    time.Duration
}

// Sample is what one attack measured, over the requests started after the
// warm-up.
type Sample struct {
	Requests int     `json:"requests"` // requests started in the measured window
	Total    int     `json:"total"`    // requests sent, warm-up included
	RPS      float64 `json:"rps"`      // Requests / Duration
	Errors   int     `json:"errors"`   // transport errors and unexpected statuses
	FirstErr string  `json:"firstError,omitempty"`
	// ErrorKinds counts Errors by kind: "status 503", or the transport
	// error's text. (Only the first error used to be kept, so a run with
	// errors of two kinds could not be told from one with one kind.)
	ErrorKinds map[string]int `json:"errorKinds,omitempty"`
	P50        time.Duration  `json:"p50"`
	P99        time.Duration  `json:"p99"`
	P999       time.Duration  `json:"p999"`
	Max        time.Duration  `json:"max"`
}

// Attack runs l against t; want is the expected status.
func Attack(t Target, want int, l Load) Sample {
	maxWorkers := uint64(l.Concurrency)
	if l.Rate > 0 {
		maxWorkers = 4096
	}
	atk := vegeta.NewAttacker(
		vegeta.Workers(uint64(l.Concurrency)),
		vegeta.MaxWorkers(maxWorkers),
		vegeta.Connections(max(l.Concurrency, 256)),
		vegeta.MaxBody(0),
		vegeta.KeepAlive(true),
		vegeta.Timeout(10*time.Second),
		vegeta.Redirects(vegeta.NoFollow),
	)
	tgt := vegeta.Target{Method: t.Method, URL: t.URL, Body: t.Body, Header: t.Header}
	pacer := vegeta.Rate{Freq: l.Rate, Per: time.Second}
	expected := uint16(want)

	start := time.Now()
	measureFrom := start.Add(l.Warmup)
	var s Sample
	lat := make([]time.Duration, 0, 1<<16)
	for res := range atk.Attack(vegeta.NewStaticTargeter(tgt), pacer, l.Warmup+l.Duration, "") {
		s.Total++
		if res.Timestamp.Before(measureFrom) {
			continue
		}
		s.Requests++
		if res.Code != expected || (res.Error != "" && res.Code == 0) {
			s.addError(errorKind(res.Code, res.Error))
			continue
		}
		lat = append(lat, res.Latency)
	}
	if l.Duration > 0 {
		s.RPS = float64(s.Requests) / l.Duration.Seconds()
	}
	s.P50, s.P99, s.P999, s.Max = percentiles(lat)
	return s
}

// errorKind names an unexpected result: its transport error, or else its
// status.
func errorKind(code uint16, err string) string {
	if err != "" && code == 0 {
		return err
	}
	return "status " + strconv.Itoa(int(code))
}

// addError counts one error of the given kind.
func (s *Sample) addError(kind string) {
	s.Errors++
	if s.FirstErr == "" {
		s.FirstErr = kind
	}
	if s.ErrorKinds == nil {
		s.ErrorKinds = make(map[string]int)
	}
	s.ErrorKinds[kind]++
}

// fmtErrorKinds writes counts by kind, most frequent first ("55 × status
// 503, 2 × EOF"), or "" when there are none.
func fmtErrorKinds(kinds map[string]int) string {
	names := slices.Collect(maps.Keys(kinds))
	slices.SortFunc(names, func(a, b string) int {
		if c := cmp.Compare(kinds[b], kinds[a]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = strconv.Itoa(kinds[n]) + " × " + n
	}
	return strings.Join(parts, ", ")
}

// percentiles returns the exact p50, p99, p99.9 and maximum (nearest rank)
// of lat, which it sorts.
func percentiles(lat []time.Duration) (p50, p99, p999, maxLat time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	rank := func(q float64) time.Duration {
		i := int(math.Ceil(q*float64(len(lat)))) - 1
		return lat[min(max(i, 0), len(lat)-1)]
	}
	return rank(0.50), rank(0.99), rank(0.999), lat[len(lat)-1]
}

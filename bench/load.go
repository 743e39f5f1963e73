package bench

import (
	"math"
	"net/http"
	"slices"
	"strconv"
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
	Requests int           `json:"requests"` // requests started in the measured window
	Total    int           `json:"total"`    // requests sent, warm-up included
	RPS      float64       `json:"rps"`      // Requests / Duration
	Errors   int           `json:"errors"`   // transport errors and unexpected statuses
	FirstErr string        `json:"firstError,omitempty"`
	P50      time.Duration `json:"p50"`
	P99      time.Duration `json:"p99"`
	P999     time.Duration `json:"p999"`
	Max      time.Duration `json:"max"`
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
			s.Errors++
			if s.FirstErr == "" {
				s.FirstErr = res.Error
				if s.FirstErr == "" {
					s.FirstErr = "status " + strconv.Itoa(int(res.Code))
				}
			}
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

package limiter

import (
	"runtime/metrics"
	"sync"
	"time"
)

// A Redis round trip that runs over its timeout is blamed on Redis only if
// this process was not itself short of CPU meanwhile. The Go scheduler
// records, for every goroutine it starts, how long the goroutine waited
// runnable for a CPU (/sched/latencies:seconds); a wait of a fifth of the
// timeout or more since the round trip was sent means the reply may well
// have arrived and only the goroutine that reads it could not run.

const schedLatencies = "/sched/latencies:seconds"

var schedSample = struct {
	sync.Mutex
	s []metrics.Sample
}{s: []metrics.Sample{{Name: schedLatencies}}}

// slowSchedulings returns how many goroutine starts, since the process
// began, waited at least min for a CPU (a variable: tests simulate a
// saturated process).
var slowSchedulings = readSlowSchedulings

func readSlowSchedulings(min time.Duration) uint64 {
	schedSample.Lock()
	defer schedSample.Unlock()
	metrics.Read(schedSample.s)
	v := schedSample.s[0].Value
	if v.Kind() != metrics.KindFloat64Histogram {
		return 0
	}
	h := v.Float64Histogram()
	sec := min.Seconds()
	var n uint64
	for i, c := range h.Counts {
		if h.Buckets[i] >= sec {
			n += c
		}
	}
	return n
}

package bench

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// The rate-limit case (issue 16): two gateways sharing one Redis, one API
// key limited to 600 a minute, each gateway saturated by 128 connections
// on the same cores for a few seconds. Every request the limit admits is a
// 200; the rest must be 429 (over the limit) or 503 (shed: the gateway
// could not have Redis decide in time). Admitted must equal the limit,
// exactly: a gateway that falls back to its own memory count admits up to
// twice as many.

// LimitCaseID selects the case with -only.
const LimitCaseID = "limit/two-saturated-gateways"

// LimitResult is what the case measured.
type LimitResult struct {
	Limit       int           `json:"limit"`
	Gateways    int           `json:"gateways"`
	Connections int           `json:"connectionsPerGateway"`
	Duration    time.Duration `json:"duration"`
	Requests    int           `json:"requests"`
	Admitted    int           `json:"admitted"` // 200
	Limited     int           `json:"limited"`  // 429
	Shed        int           `json:"shed"`     // 503
	Other       int           `json:"other"`    // anything else, transport errors included
	Fallbacks   float64       `json:"fallbacks"`
	RedisErrors float64       `json:"redisErrors"`
	Attempts    int           `json:"attempts"` // runs that straddled a minute boundary are repeated
}

func (e *env) limitExact(ctx context.Context) (*LimitResult, error) {
	r := &LimitResult{Limit: 600, Gateways: 2, Connections: 128, Duration: 4 * time.Second}
	var gws []*server
	defer func() {
		for _, g := range gws {
			g.stop()
		}
	}()
	for range r.Gateways {
		g, err := e.start(srvGatewayRedis, "-rate-limit", strconv.Itoa(r.Limit))
		if err != nil {
			return nil, err
		}
		gws = append(gws, g)
	}
	for r.Attempts = 1; ; r.Attempts++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// Redis counts per minute of its clock (the same machine's): the
		// run must fit in one minute, or the next window admits more.
		if left := time.Minute - time.Duration(time.Now().UnixNano()%int64(time.Minute)); left < r.Duration+3*time.Second {
			time.Sleep(left + 200*time.Millisecond)
		}
		minute := time.Now().Unix() / 60
		token := fmt.Sprintf("bench-limit-%d", time.Now().UnixNano()) // a key id no earlier run counted
		counts := map[uint16]int{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for _, g := range gws {
			wg.Go(func() {
				atk := vegeta.NewAttacker(
					vegeta.Workers(uint64(r.Connections)), vegeta.MaxWorkers(uint64(r.Connections)),
					vegeta.Connections(r.Connections), vegeta.MaxBody(0), vegeta.KeepAlive(true),
					vegeta.Timeout(10*time.Second), vegeta.Redirects(vegeta.NoFollow))
				tgt := vegeta.Target{Method: "GET", URL: g.base + "/v1/pods",
					Header: map[string][]string{"Authorization": {"Bearer " + token}, "Accept": {"application/json"}}}
				local := map[uint16]int{}
				for res := range atk.Attack(vegeta.NewStaticTargeter(tgt), vegeta.Rate{}, r.Duration, "") {
					local[res.Code]++
				}
				mu.Lock()
				for k, v := range local {
					counts[k] += v
				}
				mu.Unlock()
			})
		}
		wg.Wait()
		if time.Now().Unix()/60 != minute && r.Attempts < 3 {
			continue
		}
		r.Requests, r.Admitted, r.Limited, r.Shed, r.Other = 0, counts[200], counts[429], counts[503], 0
		for code, n := range counts {
			r.Requests += n
			if code != 200 && code != 429 && code != 503 {
				r.Other += n
			}
		}
		break
	}
	for _, g := range gws {
		if v, err := g.metricSum("v1gw_limiter_fallback_decisions_total"); err == nil {
			r.Fallbacks += v
		}
		if v, err := g.metricSum("v1gw_limiter_redis_errors_total"); err == nil {
			r.RedisErrors += v
		}
	}
	return r, nil
}

// markdown is the case's section of results.md.
func (r *LimitResult) markdown() string {
	met := "no"
	if r.Admitted == r.Limit {
		met = "**yes**"
	}
	return fmt.Sprintf("## Rate limit under saturation\n\n"+
		"Two gateways (Redis limiter, one shared redis-server), one API key limited to %d a minute, %d connections on each gateway at maximum throughput for %s, all on the same cores (`GET /v1/pods`, the translated 100-pod list).\n\n"+
		"| requests | admitted (200) | over the limit (429) | shed (503) | other | limiter fallbacks | Redis errors | admitted = limit |\n|---:|---:|---:|---:|---:|---:|---:|---|\n"+
		"| %d | %d | %d | %d | %d | %.0f | %.0f | %s |\n\n",
		r.Limit, r.Connections, r.Duration, r.Requests, r.Admitted, r.Limited, r.Shed, r.Other, r.Fallbacks, r.RedisErrors, met)
}

// Package v2sim is an in-memory simulator of the Runpod REST API v2
// (https://api.runpod.io, paths under /v2), written from the vendor's
// contract (v2.openapi.json) and the product brief of the v2 service.
//
// It is a product feature, not a throwaway mock: the gateway's demo mode,
// the end-to-end tests and users' own CI run against it. It deliberately
// imports none of the gateway's packages, so that it is an independent
// reading of the v2 contract: a mistake in the gateway's translation cannot
// hide behind the same mistake here.
//
// # What it simulates
//
//   - Every v2 operation of the contract: pods (CRUD, POST /action, SSE logs),
//     clusters (CRUD, member pods), serverless endpoints (CRUD, workers,
//     releases, worker SSE logs), templates, network volumes, registry
//     credentials, ECR registry delegations, account SSH keys, the GPU / CPU /
//     data-center / public-template catalogs and the six billing histories.
//   - Bearer authentication (401), keys without access (403), a per-key fixed
//     minute window rate limit with the IETF RateLimit / RateLimit-Policy
//     headers and 429 + Retry-After, RFC 9457 problem bodies, 404 for unknown
//     paths and 405 (with Allow) for a wrong method on a known path.
//   - Strict request bodies: a hand-written validator mirrors every request
//     schema of the contract (closed objects, required, enums, bounds,
//     lengths, patterns, item counts, uniqueness, dependentRequired, the
//     if/then rules) and answers 422 with one `errors` entry per violation,
//     each naming its location ("$.gpu.count: must be >= 1"). Cross-field and
//     state rules (exactly one of gpu|cpu, CUDA set vs floor, mount rules,
//     unknown catalog ids, capacity, size decrease, ...) answer 400, invalid
//     transitions and cluster-member edits 409.
//   - Time: everything that changes over time (pod PROVISIONING → STARTING →
//     RUNNING, cluster placement / network / primary, serverless worker
//     initialisation and release roll-outs, billing) is computed lazily from
//     timestamps and the injected clock (Options.Now); nothing runs in the
//     background and no goroutine is started.
//   - Deterministic identifiers (a seeded PRNG), so that two servers built
//     with the same Options and fed the same requests answer identically.
//   - Test hooks: scripted faults (AddFault), a request log (Calls) and
//     SetPodError to put a pod into the ERROR status.
//
// # What it does not simulate
//
//   - Jobs: there is no queue and none of the serverless request URLs
//     (/run, /runsync, /status, ...) is served; workers never process
//     anything. Worker status comes from the clock only (INITIALIZING for
//     10 s, then IDLE, every third one RUNNING; THROTTLED when the selection
//     has no stock; never UNHEALTHY), and the number of workers is
//     workers.min: there is no autoscaling on load, and idleTimeout,
//     scaling, timeout and flashboot are stored and echoed but have no effect.
//   - Releases are always source MANUAL (never GIT_BUILD, no buildId) and the
//     builds sub-routes Release.buildId refers to (absent from the contract)
//     do not exist.
//   - Log streams are a finite backfill of synthetic lines: the SSE stream
//     ends after the backfill instead of following new lines.
//   - One account: every accepted key sees the same resources; "owned" means
//     owned by that account, and a template it makes public does not show up
//     in the public catalog (which only holds the vendor's fixed entries).
//   - Capacity is static: catalog stock levels never change and creating
//     resources does not deplete them; a create fails for capacity only where
//     the catalog says NONE (e.g. NVIDIA H200 everywhere).
//   - Failures the service would produce on its own: 402 (insufficient
//     balance), 5xx, pods falling into ERROR (use SetPodError), workers
//     becoming UNHEALTHY. Use AddFault to script transport-level failures.
//   - Container behaviour: PATCHing image/env/ports of a running pod does not
//     restart it; globalNetworking changes take effect on the next
//     start/restart; locked only blocks stop.
//   - Money: prices and billing amounts are deterministic figures derived
//     from the simulator's catalog and resource lifetimes (compute, disk at
//     $0.10/GB-month, volumes at $0.07/$0.14 per GB-month, a 5% serverless
//     fee, 2% cluster networking), not Runpod's tariffs or discounts.
//   - Rate limiting has only the minute window (no hour/day windows) and the
//     quota is the same for every key.
//   - Persistence and pagination: state lives in memory; lists are complete.
package v2sim

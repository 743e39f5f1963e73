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
// # Readings
//
// Where the document's words are ambiguous or contradict each other and a
// client's correctness depends on the reading, the simulator implements
// each reading behind an option (Options; cmd/v2sim flags), so that a client
// can be tested under all of them. The zero value is the default reading.
//
//   - Options.EndpointTemplate — which template is an endpoint's bound
//     template. The document: createEndpoint's templateId "is resolved at
//     create time into the same container settings you could otherwise
//     spread into this body … Later template edits do not affect the
//     endpoint"; updateEndpoint's templateId: "One-time application — no link
//     to the template is retained"; deleteEndpoint: "Permanently deletes a
//     serverless endpoint and its bound template"; deleteTemplate: "Rejected
//     if … bound to a serverless endpoint"; the product brief: "A serverless
//     endpoint has a bound template". It never says the caller's template
//     becomes the bound one. EndpointTemplateCopy (default): every endpoint
//     gets a bound template of its own at create; the caller's template is
//     only read, stays deletable and survives the endpoint.
//     EndpointTemplateCaller: an owned template named by templateId is the
//     bound template (its delete is refused while the endpoint exists; the
//     endpoint's delete deletes it, even when other endpoints were made from
//     it).
//   - Options.PodTemplate — a pod's link to its template. The document:
//     CreatePodRequest.templateId: "the created pod does not retain a link to
//     the template (`template` stays null)"; Pod.template: "ID of the template
//     this pod was created from"; deleteTemplate: "Rejected if the template is
//     currently referenced by a pod (see that pod's `template` field)". Under
//     both readings what blocks a template delete is a pod's visible
//     `template` and nothing hidden. PodTemplateNull (default): `template` is
//     null and pods never block a delete. PodTemplateVisible: `template` is
//     the id and blocks the delete while the pod exists. A PATCH with
//     templateId never links ("One-time application").
//   - Options.DataCenters — dataCenterIds of pods, clusters and endpoints:
//     "Preferred data centers for placement. Omit or pass an empty array to
//     let the scheduler choose." DataCentersPreferred (default): the listed
//     data centers are tried in order, then the others (pods and clusters:
//     the one with most stock; endpoint workers: catalog order).
//     DataCentersStrict: only the listed ones (a create fails for capacity;
//     workers stay THROTTLED).
//
// # Simulator's choices
//
// Behaviour beyond the document's words, each marked "simulator's choice" in
// the code: what the document says, what the simulator does, and why.
//
//   - Endpoint bound templates. The document names none of their properties.
//     The simulator makes an owned serverless template (category CPU for CPU
//     endpoints, else NVIDIA) named "<endpoint name>__template__<first 7
//     characters of the endpoint id>", listed by GET /v2/templates (which
//     "Returns all templates owned by the authenticated user"), holding the
//     endpoint's settings at create; it is not kept in step with later
//     endpoint PATCHes. Why: the document says every endpoint has one, and a
//     listed template is the only way a client can observe it.
//   - Disk defaults. The document gives `disk` only "minimum: 1" and the
//     example 50. The simulator uses 50 for pods, clusters, endpoints and
//     templates when neither body nor template sets it, and refuses more
//     than 100000 GB. Why: the example is the document's only figure.
//   - Unknown data centers. The document does not say what an unknown id in
//     dataCenterIds, or an unknown `dataCenter` (or one offering no network
//     volumes) on a network volume create, does. The simulator answers 400
//     naming the id. Why: a body that matches the schemas but is refused is
//     a 400 throughout the document.
//   - Network volumes and placement. The document does not say that a pod
//     mounting a network volume runs in the volume's data center. The
//     simulator places it there under both DataCenters readings (strict: 400
//     when that data center is not listed). Why: a network volume is created
//     in one data center.
//   - Deleting a registry credential. The document: templates that reference
//     it "silently lose the reference (`registry` becomes null)"; it says
//     nothing of endpoints. The simulator clears it from endpoints too (no
//     new release). Why: an endpoint's container settings are its bound
//     template's, and a stale id would make every later PATCH fail.
//   - Deleting a network volume. The document: "Permanently deletes a
//     network volume and releases its storage"; nothing about resources
//     using it. The simulator removes it from endpoints' networkVolumes; pods
//     keep their mounts.network entry (the mount kind is fixed at create and
//     an empty list is refused, so the document leaves no way to show it
//     detached). Why: no stale reference that breaks a later PATCH.
//   - PATCH checks. The document: "only the fields present in the body are
//     changed". The simulator checks the registry credential, data centers
//     and network volumes of a PATCH only when the body changes them.
//   - CPU pods run on SECURE cloud only. The document does not say; CpuType
//     has only a securePerVcpu price, so a COMMUNITY CPU pod could not be
//     priced. `cloud: COMMUNITY` with `cpu` answers 400.
//   - Locked pods. The document: "Locked pods cannot be stopped or reset";
//     v2 has no reset action. The simulator blocks only `stop` (409, and it
//     is left out of `actions`); `restart` ("restart a RUNNING pod's
//     container in place") and `terminate` are allowed.
//   - Cost of an ERROR pod. The document: "0.0 when EXITED or TERMINATED".
//     The simulator also reports 0.0 for ERROR: an errored pod holds no
//     compute here (SetPodError stops its billing; `start` boots it like an
//     EXITED pod).
//   - Log event ids. The document: "Log-event `id` values are the event `ts`
//     timestamp". The simulator uses exactly the `ts` (RFC 3339, seconds);
//     events of the same second share an id, so a reconnect with
//     Last-Event-ID resumes after that whole second. A Last-Event-ID that is
//     not an RFC 3339 date-time answers 422.
//   - Registry credential names. The document does not say whether they are
//     unique; the simulator accepts duplicates.
//   - Other refusals the document does not state, each a 400 (a body that
//     matches the schemas but is refused): a serverless template with a
//     persistent mount; workers.min above workers.max; timeout below 1;
//     a port number outside 1..65535; ids the catalogs do not know (GPU
//     types, CPU flavors, serverless pools) and GPU types or counts a cloud
//     does not offer; a billing window of more than 10000 buckets.
//   - Quotas and figures the document does not give: workers.max at most
//     100 per endpoint; the default cluster image per cluster type; the
//     timing of life cycles; catalog stock, prices and billing figures (see
//     below).
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

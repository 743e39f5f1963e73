// Package deploy holds the gateway's deployment files — kubernetes/ (a
// kustomize base, a redis overlay and an optional NetworkPolicy component),
// compose/ (two gateway replicas, Redis and the v2 simulator),
// monitoring/ (a Grafana dashboard and Prometheus alerting rules) and
// helm/v1gateway (a Helm chart of the kustomize base) — and no code. Its
// tests check those files, the Dockerfile and the configuration tables of
// README.md and docs/operating.md against the config package, since no
// container engine or cluster runs where the tests do. The chart's own
// tests are the Go module in helm/ (Helm's dependencies stay out of the
// gateway's go.mod): `make test-chart`.
package deploy

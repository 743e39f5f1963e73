// Package deploy holds the gateway's deployment files — kubernetes/ (a
// kustomize base, a redis overlay and an optional NetworkPolicy component),
// compose/ (two gateway replicas, Redis and the v2 simulator) and
// monitoring/ (a Grafana dashboard and Prometheus alerting rules) — and no
// code. Its tests check those files, the Dockerfile and the configuration
// table of docs/operating.md against the config package, since no container
// engine or cluster runs where the tests do.
package deploy

// Package chaos holds the gateway's end-to-end fault scenarios (build tag
// chaos): run them with make chaos. See chaos_test.go.
package chaos

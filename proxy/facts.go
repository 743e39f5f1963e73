package proxy

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
	"go.opentelemetry.io/otel/metric"

	"github.com/v1gateway/v1gateway/facts"
	"github.com/v1gateway/v1gateway/translate"
)

// The fact store as plans see it (translate.Facts, P8): the store of
// package facts, with bounded waits, and every failure logged and counted
// (v1gw.facts.errors) — never a failure of the request. Reads give up after
// FactsReadTimeout (the answer is then what v2 alone gives); writes, made
// after v2 confirmed, outlive a client that hung up, for FactsWriteTimeout.

// Bounds on the fact store's calls.
const (
	FactsReadTimeout  = 250 * time.Millisecond
	FactsWriteTimeout = time.Second
)

const (
	metricFactsCalls  = "v1gw.facts.calls"
	metricFactsErrors = "v1gw.facts.errors"
)

// Operations of the fact store (metric label op).
var factOps = [...]string{"lookup", "record", "forget", "template_endpoints"}

const (
	factLookup = iota
	factRecord
	factForget
	factTemplateEndpoints
)

type observedFacts struct {
	store  facts.Store
	log    zerolog.Logger
	calls  [len(factOps)]atomic.Uint64
	errors [len(factOps)]atomic.Uint64
}

func (o *observedFacts) done(op int, err error) error {
	o.calls[op].Add(1)
	if err == nil {
		return nil
	}
	o.errors[op].Add(1)
	if !errors.Is(err, facts.ErrDown) {
		// Ids only reach the log through the message of a store error,
		// which names none; no key, no secret.
		o.log.Warn().Str("op", factOps[op]).Str("store", o.store.Kind()).Err(err).Msg("fact store call failed; the answer is what v2 alone gives")
	}
	return err
}

func (o *observedFacts) Lookup(ctx context.Context, kind string, ids []string) (map[string]translate.Fact, error) {
	if m, ok := o.store.(*facts.Memory); ok {
		// The in-memory store neither waits nor looks at its context:
		// a timeout (a timer started and stopped on every GET of a pod)
		// could not change its answer.
		mm, err := m.Lookup(ctx, kind, ids)
		return mm, o.done(factLookup, err)
	}
	ctx, cancel := context.WithTimeout(ctx, FactsReadTimeout)
	defer cancel()
	m, err := o.store.Lookup(ctx, kind, ids)
	return m, o.done(factLookup, err)
}

func (o *observedFacts) TemplateEndpoints(ctx context.Context, templateID string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, FactsReadTimeout)
	defer cancel()
	ids, err := o.store.TemplateEndpoints(ctx, templateID)
	return ids, o.done(factTemplateEndpoints, err)
}

func (o *observedFacts) Record(ctx context.Context, kind, id string, f translate.Fact) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), FactsWriteTimeout)
	defer cancel()
	return o.done(factRecord, o.store.Record(ctx, kind, id, f))
}

func (o *observedFacts) Forget(ctx context.Context, kind, id string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), FactsWriteTimeout)
	defer cancel()
	return o.done(factForget, o.store.Forget(ctx, kind, id))
}

// factsForPlans is the store given to plans (nil when there is none).
func (g *Gateway) factsForPlans() translate.Facts {
	if g.facts == nil {
		return nil
	}
	return g.facts
}

// registerFactsMetrics observes the fact store's counters.
func registerFactsMetrics(m metric.Meter, g *Gateway) error {
	calls, err := m.Int64ObservableCounter(metricFactsCalls, metric.WithDescription("Calls to the fact store (P8), by op (lookup, record, forget, template_endpoints) and store (memory or redis)."))
	if err != nil {
		return err
	}
	errs, err := m.Int64ObservableCounter(metricFactsErrors, metric.WithDescription("Failed calls to the fact store, by op and store: the request was answered with what v2 alone gives, or a fact was not recorded."))
	if err != nil {
		return err
	}
	_, err = m.RegisterCallback(func(_ context.Context, ob metric.Observer) error {
		f := g.facts
		if f == nil {
			return nil
		}
		for i, op := range factOps {
			attrs := cachedAttrs("op", op, "store", f.store.Kind())
			ob.ObserveInt64(calls, int64(f.calls[i].Load()), attrs.opt)
			ob.ObserveInt64(errs, int64(f.errors[i].Load()), attrs.opt)
		}
		return nil
	}, calls, errs)
	return err
}

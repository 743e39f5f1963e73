package facts

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/v1gateway/v1gateway/internal/redisurl"
	"github.com/v1gateway/v1gateway/translate"
)

// DefaultRedisPrefix starts every key of the Redis store, as "v1gw:rl:"
// starts the limiter's. Keys (each id in braces, a Redis Cluster hash tag,
// as the limiter's key ids):
//
//	v1gw:facts:pod:{<pod id>}            "c:<template id>" (string, TTL)
//	v1gw:facts:endpoint:{<endpoint id>}  "c:<template id>" or "u:<template id>" (string, TTL)
//	v1gw:facts:tpl:{<template id>}       endpoint ids made from the template (set, TTL)
const DefaultRedisPrefix = "v1gw:facts:"

// Redis is the store in Redis, shared by every replica: a fact one replica
// records is seen by the others at their next read. Reads are one round
// trip (one MGET for a whole list), shared by the reads waiting at the same
// time.
type Redis struct {
	client redis.UniversalClient
	prefix string
	ttl    time.Duration
	now    func() time.Time
	// downUntil (unix nanoseconds): after a failure, Redis is not asked
	// again for a second, so that an outage costs requests nothing.
	downUntil atomic.Int64
	// The lookup dispatcher (redisbatch.go): reqs feeds it, quit stops
	// it, stopped is closed when it has.
	reqs          chan *pendingLookup
	quit, stopped chan struct{}
	closeOnce     sync.Once
}

// RedisOptions configure NewRedis; zero values take the defaults.
type RedisOptions struct {
	Prefix string           // "": DefaultRedisPrefix (tests use their own)
	TTL    time.Duration    // 0: DefaultTTL
	Now    func() time.Time // nil: time.Now
}

// NewRedisClient builds a client for the store from V1GW_REDIS_URL (the
// forms of package redisurl). Calls are bounded by their context (the
// gateway gives reads a few hundred milliseconds) and not retried unless
// the URL says so. Its errors never contain the URL's secrets.
func NewRedisClient(raw string) (redis.UniversalClient, error) {
	t, err := redisurl.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("facts: %w", err)
	}
	c := t.Common()
	*c.ClientName = "v1gateway-facts"
	*c.ContextTimeoutEnabled = true
	if !t.Sets("max_retries") {
		*c.MaxRetries = -1 // no retry: a read falls back to v2's answer at once
	}
	return t.NewClient(), nil
}

// NewRedis returns a store on client.
func NewRedis(client redis.UniversalClient, o RedisOptions) *Redis {
	if o.Prefix == "" {
		o.Prefix = DefaultRedisPrefix
	}
	if o.TTL <= 0 {
		o.TTL = DefaultTTL
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	r := &Redis{client: client, prefix: o.Prefix, ttl: o.TTL, now: o.Now,
		reqs: make(chan *pendingLookup), quit: make(chan struct{}), stopped: make(chan struct{})}
	go r.dispatch()
	return r
}

// Kind implements Store.
func (*Redis) Kind() string { return "redis" }

// Close implements Store: it stops the lookup dispatcher (lookups then
// fail) and closes the client.
func (r *Redis) Close() error {
	r.closeOnce.Do(func() { close(r.quit) })
	<-r.stopped
	return r.client.Close()
}

// ErrDown is returned while the store skips Redis after a failure.
var ErrDown = errors.New("facts: Redis failed less than a second ago; not asked")

func (r *Redis) key(kind, id string) string { return r.prefix + kind + ":{" + id + "}" }
func (r *Redis) tplKey(tpl string) string   { return r.prefix + "tpl:{" + tpl + "}" }

// lookupKeys returns r.key(kind, id) for each of ids.
func (r *Redis) lookupKeys(kind string, ids []string) []string {
	// The keys are written one after the other into one string (one
	// allocation instead of one per key, the builder sized first), then cut
	// out of it.
	head := r.prefix + kind + ":{"
	n := 0
	for _, id := range ids {
		n += len(head) + len(id) + 1
	}
	var b strings.Builder
	b.Grow(n)
	for _, id := range ids {
		b.WriteString(head)
		b.WriteString(id)
		b.WriteByte('}')
	}
	all := b.String()
	keys := make([]string, len(ids))
	for i, id := range ids {
		k := len(head) + len(id) + 1
		keys[i], all = all[:k], all[k:]
	}
	return keys
}

func (r *Redis) up() error {
	if r.now().UnixNano() < r.downUntil.Load() {
		return ErrDown
	}
	return nil
}

func (r *Redis) failed(err error) error {
	if err != nil && !errors.Is(err, redis.Nil) && !errors.Is(err, context.Canceled) {
		r.downUntil.Store(r.now().Add(time.Second).UnixNano())
	}
	return err
}

// Lookup implements translate.Facts: one MGET (a pipeline of GETs in a
// cluster), shared with the lookups waiting at the same time (see
// redisbatch.go).
func (r *Redis) Lookup(ctx context.Context, kind string, ids []string) (map[string]translate.Fact, error) {
	if !validKind(kind) {
		return nil, errKind
	}
	if len(ids) == 0 {
		return nil, nil
	}
	if err := r.up(); err != nil {
		return nil, err
	}
	vals, err := r.batchLookup(ctx, r.lookupKeys(kind, ids))
	if err != nil {
		return nil, r.failed(err)
	}
	var out map[string]translate.Fact
	for i, v := range vals {
		s, ok := v.(string)
		if !ok {
			continue
		}
		if f, ok := decode(s); ok {
			if out == nil {
				out = make(map[string]translate.Fact)
			}
			out[ids[i]] = f
		}
	}
	return out, nil
}

// Record implements translate.Facts. For an endpoint it also keeps the
// template's set of endpoints (TemplateEndpoints): the old fact is read
// first (its template loses the endpoint; its Created stays).
func (r *Redis) Record(ctx context.Context, kind, id string, f translate.Fact) error {
	if !validKind(kind) {
		return errKind
	}
	if err := r.up(); err != nil {
		return err
	}
	k := r.key(kind, id)
	if kind != translate.FactEndpoint {
		return r.failed(r.client.Set(ctx, k, encode(f), r.ttl).Err())
	}
	oldRaw, err := r.client.Get(ctx, k).Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		return r.failed(err)
	}
	old, had := decode(oldRaw)
	if had {
		f.Created = f.Created || old.Created
	}
	_, err = r.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, k, encode(f), r.ttl)
		if had && old.TemplateID != f.TemplateID {
			p.SRem(ctx, r.tplKey(old.TemplateID), id)
		}
		p.SAdd(ctx, r.tplKey(f.TemplateID), id)
		p.Expire(ctx, r.tplKey(f.TemplateID), r.ttl)
		return nil
	})
	return r.failed(err)
}

// Forget implements translate.Facts.
func (r *Redis) Forget(ctx context.Context, kind, id string) error {
	if !validKind(kind) {
		return errKind
	}
	if err := r.up(); err != nil {
		return err
	}
	k := r.key(kind, id)
	if kind != translate.FactEndpoint {
		return r.failed(r.client.Del(ctx, k).Err())
	}
	oldRaw, err := r.client.GetDel(ctx, k).Result()
	if errors.Is(err, redis.Nil) {
		return nil
	}
	if err != nil {
		return r.failed(err)
	}
	if old, ok := decode(oldRaw); ok {
		return r.failed(r.client.SRem(ctx, r.tplKey(old.TemplateID), id).Err())
	}
	return nil
}

// TemplateEndpoints implements translate.Facts: one SMEMBERS. An endpoint
// updated from another template since is removed from the set by Record;
// the set may still name endpoints deleted outside the gateway, which the
// rollout finds gone (404) and forgets.
func (r *Redis) TemplateEndpoints(ctx context.Context, templateID string) ([]string, error) {
	if err := r.up(); err != nil {
		return nil, err
	}
	ids, err := r.client.SMembers(ctx, r.tplKey(templateID)).Result()
	if err != nil {
		return nil, r.failed(err)
	}
	slices.Sort(ids)
	return ids, nil
}

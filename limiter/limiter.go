// Package limiter decides per-key minute rate limits. A key is identified by
// its key id (an HMAC of the bearer token, see KeyID), never by the token
// itself, so no limiter storage, log line or metric ever holds a secret.
package limiter

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// Window is the length of a rate-limit window. Limits are per minute, as in v2.
const Window = time.Minute

// Decision is the outcome of one rate-limit check.
type Decision struct {
	Allowed   bool
	Limit     int           // the quota of the window (0: unlimited)
	Remaining int           // requests left in the window after this one
	Reset     time.Duration // time until the window resets
}

// ResetSeconds is Reset rounded up to whole seconds, at least 1, as the
// RateLimit header and Retry-After want it.
func (d Decision) ResetSeconds() int {
	s := d.Reset / time.Second // no d.Reset+time.Second-1: it wraps near the maximum
	if d.Reset%time.Second > 0 {
		s++
	}
	if s < 1 {
		s = 1
	}
	return int(s)
}

// Limiter counts one request of keyID against a quota of limit requests per
// window. limit <= 0 means unlimited: the request is allowed and not counted.
type Limiter interface {
	Allow(ctx context.Context, keyID string, limit int) (Decision, error)
	Close() error
}

// KeyID derives the stable, non-reversible identifier of an API key used in
// limiter keys, logs, metrics and the usage report: hex(HMAC-SHA256(secret,
// token)) truncated to 128 bits.
func KeyID(secret []byte, token string) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(token))
	sum := m.Sum(nil)
	return hex.EncodeToString(sum[:16])
}

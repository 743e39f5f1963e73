package limiter

import (
	"fmt"

	"github.com/v1gateway/v1gateway/internal/redisurl"
)

// NewRedis accepts the Redis URL forms of package redisurl
// (V1GW_REDIS_URL): redis://, rediss://, unix://, Redis Cluster via addr=
// parameters, and redis-sentinel:// / rediss-sentinel://.
//
// Unless the URL sets them, the limiter disables go-redis's command retries
// (max_retries) and dial retries (dialer_retries), because each call has a
// deadline of a few tens of milliseconds and the breaker does the retrying;
// it skips CLIENT SETINFO on connect (disableIdentity) and honours context
// deadlines on sockets.

// CheckRedisURL reports whether raw is a Redis URL that NewRedis accepts,
// without connecting. Its error never contains the URL's secrets.
func CheckRedisURL(raw string) error {
	_, err := parseRedisURL(raw)
	return err
}

// clientName is how the limiter's connections show in CLIENT LIST.
const clientName = "v1gateway-limiter"

// parseRedisURL parses raw and applies the limiter's defaults.
func parseRedisURL(raw string) (*redisurl.Target, error) {
	t, err := redisurl.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("limiter: %w", err)
	}
	c := t.Common()
	*c.ContextTimeoutEnabled = true
	if !t.Sets("max_retries") {
		*c.MaxRetries = -1
	}
	if !t.Sets("dialer_retries") {
		*c.DialerRetries = 1
	}
	if !t.Sets("disableIdentity") {
		*c.DisableIdentity = true
	}
	if *c.ClientName == "" {
		*c.ClientName = clientName
	}
	return t, nil
}

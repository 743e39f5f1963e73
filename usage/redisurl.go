package usage

import (
	"fmt"

	"github.com/redis/go-redis/v9"
	"github.com/v1gateway/v1gateway/internal/redisurl"
)

// NewRedisClient builds a client for the usage store from V1GW_REDIS_URL,
// in the forms the limiter accepts (see package redisurl): redis://,
// rediss://, unix://, Redis Cluster via addr= parameters, and
// redis-sentinel:// / rediss-sentinel://. Its errors never contain the
// URL's secrets.
//
// The usage store is written once every few seconds, off the request path,
// so the client keeps go-redis's default timeouts and retries.
func NewRedisClient(raw string) (redis.UniversalClient, error) {
	t, err := redisurl.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("usage: %w", err)
	}
	*t.Common().ClientName = "v1gateway-usage"
	return t.NewClient(), nil
}

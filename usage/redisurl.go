package usage

import (
	"crypto/tls"
	"errors"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// NewRedisClient builds a client for the usage store from V1GW_REDIS_URL,
// in the forms the limiter accepts (see limiter.RedisOptions.URL):
// redis://, rediss://, unix://, Redis Cluster via addr= parameters, and
// redis-sentinel://[[user]:password@]host[:port][,host[:port]...]/master[?db=N]
// (rediss-sentinel:// for TLS; sentinel_username and sentinel_password
// authenticate to the Sentinels). Its errors never contain the URL.
//
// The usage store is written once every few seconds, off the request path,
// so the client keeps go-redis's default timeouts and retries.
func NewRedisClient(raw string) (redis.UniversalClient, error) {
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return nil, errors.New("usage: invalid Redis URL: missing scheme")
	}
	switch strings.ToLower(scheme) {
	case "redis-sentinel", "rediss-sentinel":
		o, err := parseSentinel(strings.EqualFold(scheme, "rediss-sentinel"), rest)
		if err != nil {
			return nil, errors.New("usage: invalid Redis URL: " + err.Error())
		}
		o.ClientName = "v1gateway-usage"
		return redis.NewFailoverClient(o), nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, errors.New("usage: invalid Redis URL")
	}
	if _, cluster := u.Query()["addr"]; cluster {
		o, err := redis.ParseClusterURL(raw)
		if err != nil {
			return nil, errors.New("usage: invalid Redis Cluster URL")
		}
		o.ClientName = "v1gateway-usage"
		return redis.NewClusterClient(o), nil
	}
	o, err := redis.ParseURL(raw)
	if err != nil {
		return nil, errors.New("usage: invalid Redis URL")
	}
	o.ClientName = "v1gateway-usage"
	return redis.NewClient(o), nil
}

func parseSentinel(tlsOn bool, rest string) (*redis.FailoverOptions, error) {
	o := &redis.FailoverOptions{DialTimeout: 5 * time.Second}
	rest, rawQuery, _ := strings.Cut(rest, "?")
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		user, pass, hasPass := strings.Cut(rest[:i], ":")
		rest = rest[i+1:]
		var err error
		if o.Username, err = url.PathUnescape(user); err != nil {
			return nil, errors.New("malformed user name")
		}
		if hasPass {
			if o.Password, err = url.PathUnescape(pass); err != nil {
				return nil, errors.New("malformed password")
			}
		}
	}
	hosts, master, ok := strings.Cut(rest, "/")
	master, err := url.PathUnescape(master)
	if !ok || err != nil || master == "" {
		return nil, errors.New("a sentinel URL needs the master name as its path")
	}
	o.MasterName = master
	for h := range strings.SplitSeq(hosts, ",") {
		if _, _, err := net.SplitHostPort(h); err != nil {
			h = net.JoinHostPort(strings.Trim(h, "[]"), "26379")
		}
		o.SentinelAddrs = append(o.SentinelAddrs, h)
	}
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return nil, errors.New("malformed query string")
	}
	if v := q.Get("db"); v != "" {
		if o.DB, err = strconv.Atoi(v); err != nil || o.DB < 0 {
			return nil, errors.New("db must be a non-negative integer")
		}
	}
	o.SentinelUsername = q.Get("sentinel_username")
	o.SentinelPassword = q.Get("sentinel_password")
	if tlsOn {
		o.TLSConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	return o, nil
}

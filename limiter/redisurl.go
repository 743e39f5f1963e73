package limiter

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"
)

// Redis URL forms accepted by NewRedis (V1GW_REDIS_URL):
//
//	redis://[[user]:password@]host[:port][/db][?option=value...]   one node
//	rediss://...                                                   one node over TLS
//	unix://[[user]:password@]/path/to/redis.sock[?db=N]           one node, Unix socket
//	redis://[[user]:password@]host:port?addr=host2:port2[&addr=...] Redis Cluster (rediss:// for TLS)
//	redis-sentinel://[[user]:password@]host[:port][,host[:port]...]/mastername[?db=N]
//	rediss-sentinel://...                                          Sentinel, TLS to sentinels and master
//
// The first three are go-redis's ParseURL, the cluster form is go-redis's
// ParseClusterURL: any addr= parameter selects Redis Cluster, with the
// URL's host and every addr as seed nodes (a single seed can be given by
// repeating the host as addr=). Their option parameters are go-redis's
// (dial_timeout, pool_size, max_retries, ...).
//
// The sentinel form is this package's: a comma-separated list of Sentinel
// addresses (port 26379 when omitted), the master's name as the path, and
// optionally db=N. The user information authenticates to the master; the
// parameters sentinel_username and sentinel_password authenticate to the
// Sentinels when they require it.
//
// Unless the URL sets them, the limiter disables go-redis's command retries
// (max_retries) and dial retries (dialer_retries), because each call has a
// deadline of a few tens of milliseconds and the breaker does the retrying;
// it skips CLIENT SETINFO on connect (disableIdentity) and honours context
// deadlines on sockets.

// redisTarget is a parsed V1GW_REDIS_URL: exactly one of the option
// structs is set. Clients are built from copies of it, so a new client can
// replace a broken one.
type redisTarget struct {
	kind     string // "single", "cluster" or "sentinel"
	single   *redis.Options
	cluster  *redis.ClusterOptions
	failover *redis.FailoverOptions
}

// newClient builds a fresh client for the target.
func (t *redisTarget) newClient() redis.UniversalClient {
	switch {
	case t.cluster != nil:
		o := *t.cluster
		return redis.NewClusterClient(&o)
	case t.failover != nil:
		o := *t.failover
		return redis.NewFailoverClient(&o)
	default:
		o := *t.single
		return redis.NewClient(&o)
	}
}

// CheckRedisURL reports whether raw is a Redis URL that NewRedis accepts,
// without connecting. Its error never contains the URL's secrets.
func CheckRedisURL(raw string) error {
	_, err := parseRedisURL(raw)
	return err
}

// clientName is how the limiter's connections show in CLIENT LIST.
const clientName = "v1gateway-limiter"

func parseRedisURL(raw string) (*redisTarget, error) {
	t, err := parseRedisURLRaw(raw)
	if err != nil {
		return nil, fmt.Errorf("limiter: invalid Redis URL: %s", redactSecrets(err.Error(), raw))
	}
	return t, nil
}

func parseRedisURLRaw(raw string) (*redisTarget, error) {
	if raw == "" {
		return nil, errors.New("empty URL")
	}
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return nil, errors.New("missing scheme (want redis://, rediss://, unix://, redis-sentinel:// or rediss-sentinel://)")
	}
	var query url.Values
	if i := strings.LastIndexByte(rest, '?'); i >= 0 {
		// go-redis reads the query after the last '?' too; a malformed
		// query is reported without echoing it.
		q, err := url.ParseQuery(rest[i+1:])
		if err != nil {
			return nil, errors.New("malformed query string")
		}
		query = q
	}
	has := func(k string) bool { _, ok := query[k]; return ok }

	switch strings.ToLower(scheme) {
	case "redis-sentinel", "rediss-sentinel":
		o, err := parseSentinelURL(strings.ToLower(scheme) == "rediss-sentinel", rest)
		if err != nil {
			return nil, err
		}
		o.ContextTimeoutEnabled = true
		o.MaxRetries, o.DialerRetries, o.DisableIdentity, o.ClientName = -1, 1, true, clientName
		return &redisTarget{kind: "sentinel", failover: o}, nil

	case "redis", "rediss":
		if has("addr") {
			o, err := redis.ParseClusterURL(raw)
			if err != nil {
				return nil, unwrapURLError(err)
			}
			if p := strings.Trim(urlPath(rest), "/"); p != "" && p != "0" {
				return nil, errors.New("a Redis Cluster URL cannot select a database: Redis Cluster has only database 0")
			}
			o.ContextTimeoutEnabled = true
			if !has("max_retries") {
				o.MaxRetries = -1
			}
			if !has("dialer_retries") {
				o.DialerRetries = 1
			}
			if !has("disableIdentity") {
				o.DisableIdentity = true
			}
			if o.ClientName == "" {
				o.ClientName = clientName
			}
			return &redisTarget{kind: "cluster", cluster: o}, nil
		}
		fallthrough
	case "unix":
		o, err := redis.ParseURL(raw)
		if err != nil {
			return nil, unwrapURLError(err)
		}
		o.ContextTimeoutEnabled = true
		if !has("max_retries") {
			o.MaxRetries = -1
		}
		if !has("dialer_retries") {
			o.DialerRetries = 1
		}
		if !has("disableIdentity") {
			o.DisableIdentity = true
		}
		if o.ClientName == "" {
			o.ClientName = clientName
		}
		return &redisTarget{kind: "single", single: o}, nil
	default:
		return nil, fmt.Errorf("unsupported scheme %q (want redis, rediss, unix, redis-sentinel or rediss-sentinel)", scheme)
	}
}

// parseSentinelURL parses what follows "redis-sentinel://":
// [[user]:password@]host[:port][,host[:port]...]/mastername[?db=N&sentinel_username=U&sentinel_password=P]
func parseSentinelURL(tlsOn bool, rest string) (*redis.FailoverOptions, error) {
	o := &redis.FailoverOptions{}
	rest, rawQuery, _ := strings.Cut(rest, "?")
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		userinfo := rest[:i]
		rest = rest[i+1:]
		user, pass, hasPass := strings.Cut(userinfo, ":")
		var err error
		if o.Username, err = url.PathUnescape(user); err != nil {
			return nil, errors.New("malformed user name (percent-encode special characters)")
		}
		if hasPass {
			if o.Password, err = url.PathUnescape(pass); err != nil {
				return nil, errors.New("malformed password (percent-encode special characters)")
			}
		}
	}
	hosts, master, ok := strings.Cut(rest, "/")
	if !ok || master == "" {
		return nil, errors.New("a sentinel URL needs the master name as its path: redis-sentinel://host:26379[,host:26379]/mymaster")
	}
	master, err := url.PathUnescape(master)
	if err != nil || strings.Contains(master, "/") {
		return nil, errors.New("malformed master name")
	}
	o.MasterName = master
	for h := range strings.SplitSeq(hosts, ",") {
		if h == "" {
			return nil, errors.New("empty sentinel address")
		}
		host, port, err := net.SplitHostPort(h)
		if err != nil {
			// No port: the Sentinel default.
			switch {
			case strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") && strings.Count(h, "[") == 1 && strings.Count(h, "]") == 1:
				host = h[1 : len(h)-1]
			case strings.ContainsAny(h, "[]:"):
				return nil, fmt.Errorf("malformed sentinel address %q (write IPv6 addresses as [addr] or [addr]:port)", h)
			default:
				host = h
			}
			port = "26379"
		}
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("sentinel address %q has an invalid port", h)
		}
		if host == "" {
			return nil, fmt.Errorf("sentinel address %q has no host", h)
		}
		o.SentinelAddrs = append(o.SentinelAddrs, net.JoinHostPort(host, port))
	}
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return nil, errors.New("malformed query string")
	}
	for k, v := range q {
		val := v[len(v)-1]
		switch k {
		case "db":
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("invalid database number %q", val)
			}
			o.DB = n
		case "sentinel_username":
			o.SentinelUsername = val
		case "sentinel_password":
			o.SentinelPassword = val
		default:
			return nil, fmt.Errorf("unknown sentinel URL parameter %q (known: db, sentinel_username, sentinel_password)", k)
		}
	}
	if tlsOn {
		// No ServerName: each connection (to a Sentinel, then to the
		// master it names) verifies the certificate against the host it
		// dials.
		o.TLSConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	return o, nil
}

// urlPath is the path of what follows "scheme://", without the query.
func urlPath(rest string) string {
	rest, _, _ = strings.Cut(rest, "?")
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		return rest[i:]
	}
	return ""
}

// unwrapURLError drops the URL that net/url puts in its errors.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// redactSecrets removes every secret of raw (its password, user
// information, and the values of query parameters whose name mentions a
// password) from msg, in raw and percent-decoded form.
func redactSecrets(msg, raw string) string {
	var secrets []string
	add := func(s string) {
		if s != "" {
			secrets = append(secrets, s)
			if d, err := url.PathUnescape(s); err == nil && d != s {
				secrets = append(secrets, d)
			}
			if d, err := url.QueryUnescape(s); err == nil && d != s {
				secrets = append(secrets, d)
			}
		}
	}
	_, rest, _ := strings.Cut(raw, "://")
	auth := rest
	if i := strings.IndexByte(auth, '?'); i >= 0 {
		auth = auth[:i]
	}
	if i := strings.LastIndexByte(auth, '@'); i >= 0 {
		userinfo := auth[:i]
		add(userinfo)
		if _, pass, ok := strings.Cut(userinfo, ":"); ok {
			add(pass)
		}
	}
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		for kv := range strings.SplitSeq(rest[i+1:], "&") {
			k, v, _ := strings.Cut(kv, "=")
			if lk := strings.ToLower(k); strings.Contains(lk, "pass") || strings.Contains(lk, "secret") || strings.Contains(lk, "token") {
				add(v)
			}
		}
	}
	// Longest first, so that a password inside the user information is
	// not left half-masked.
	sort.Slice(secrets, func(i, j int) bool { return len(secrets[i]) > len(secrets[j]) })
	for _, s := range secrets {
		msg = strings.ReplaceAll(msg, s, "xxxxx")
	}
	return msg
}

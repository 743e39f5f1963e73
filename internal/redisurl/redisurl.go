// Package redisurl parses V1GW_REDIS_URL, for every client of the Redis
// the gateway shares between replicas (the rate limiter, the usage store).
//
// Accepted forms:
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
// Errors never contain the URL's secrets.
package redisurl

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

// Target is a parsed Redis URL: exactly one of the option structs is set.
// Clients are built from copies of it, so a new client can replace a
// broken one; callers may adjust the options before building clients.
type Target struct {
	Kind     string // "single", "cluster" or "sentinel"
	Single   *redis.Options
	Cluster  *redis.ClusterOptions
	Failover *redis.FailoverOptions

	query url.Values
}

// NewClient builds a fresh client for the target.
func (t *Target) NewClient() redis.UniversalClient {
	switch {
	case t.Cluster != nil:
		o := *t.Cluster
		return redis.NewClusterClient(&o)
	case t.Failover != nil:
		o := *t.Failover
		return redis.NewFailoverClient(&o)
	default:
		o := *t.Single
		return redis.NewClient(&o)
	}
}

// Sets reports whether the URL's query string sets the parameter name, so
// that a caller changing a go-redis default can leave an explicit setting
// alone.
func (t *Target) Sets(name string) bool {
	_, ok := t.query[name]
	return ok
}

// Common points at the settings every kind of client has, in whichever
// option struct the target holds.
type Common struct {
	ClientName            *string
	MaxRetries            *int
	DialerRetries         *int
	ContextTimeoutEnabled *bool
	DisableIdentity       *bool
}

// Common returns pointers to the target's common settings.
func (t *Target) Common() Common {
	switch {
	case t.Cluster != nil:
		o := t.Cluster
		return Common{&o.ClientName, &o.MaxRetries, &o.DialerRetries, &o.ContextTimeoutEnabled, &o.DisableIdentity}
	case t.Failover != nil:
		o := t.Failover
		return Common{&o.ClientName, &o.MaxRetries, &o.DialerRetries, &o.ContextTimeoutEnabled, &o.DisableIdentity}
	default:
		o := t.Single
		return Common{&o.ClientName, &o.MaxRetries, &o.DialerRetries, &o.ContextTimeoutEnabled, &o.DisableIdentity}
	}
}

// Check reports whether raw is a Redis URL that Parse accepts, without
// connecting. Its error never contains the URL's secrets.
func Check(raw string) error {
	_, err := Parse(raw)
	return err
}

// Parse parses raw in one of the package's forms. Its errors start with
// "invalid Redis URL: " and never contain the URL's secrets.
func Parse(raw string) (*Target, error) {
	t, err := parse(raw)
	if err != nil {
		return nil, fmt.Errorf("invalid Redis URL: %s", redactSecrets(err.Error(), raw))
	}
	return t, nil
}

func parse(raw string) (*Target, error) {
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

	switch strings.ToLower(scheme) {
	case "redis-sentinel", "rediss-sentinel":
		o, err := parseSentinel(strings.ToLower(scheme) == "rediss-sentinel", rest)
		if err != nil {
			return nil, err
		}
		return &Target{Kind: "sentinel", Failover: o, query: query}, nil

	case "redis", "rediss":
		if _, cluster := query["addr"]; cluster {
			o, err := redis.ParseClusterURL(raw)
			if err != nil {
				return nil, unwrapURLError(err)
			}
			if p := strings.Trim(urlPath(rest), "/"); p != "" && p != "0" {
				return nil, errors.New("a Redis Cluster URL cannot select a database: Redis Cluster has only database 0")
			}
			return &Target{Kind: "cluster", Cluster: o, query: query}, nil
		}
		fallthrough
	case "unix":
		o, err := redis.ParseURL(raw)
		if err != nil {
			return nil, unwrapURLError(err)
		}
		return &Target{Kind: "single", Single: o, query: query}, nil
	default:
		return nil, fmt.Errorf("unsupported scheme %q (want redis, rediss, unix, redis-sentinel or rediss-sentinel)", scheme)
	}
}

// parseSentinel parses what follows "redis-sentinel://":
// [[user]:password@]host[:port][,host[:port]...]/mastername[?db=N&sentinel_username=U&sentinel_password=P]
func parseSentinel(tlsOn bool, rest string) (*redis.FailoverOptions, error) {
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

package config

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"
)

const (
	configFlag = "config"
	configEnv  = "V1GW_CONFIG"
)

// rawFlag records a flag's text; every setting is parsed by its own set
// function so that flags, environment and file share one set of rules and
// messages.
type rawFlag struct {
	val    string
	isBool bool
}

func (f *rawFlag) String() string     { return f.val }
func (f *rawFlag) Set(s string) error { f.val = s; return nil }
func (f *rawFlag) IsBoolFlag() bool   { return f.isBool }

// Load builds the Config from args (without the program name), the
// environment read through getenv (os.Getenv when nil) and the YAML file
// named by -config or V1GW_CONFIG, then validates it. -h or -help returns
// flag.ErrHelp, so that the caller can print Usage.
func Load(args []string, getenv func(string) string) (*Config, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	fs := flag.NewFlagSet("v1gateway", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	for _, s := range settings {
		if s.flag != "" {
			fs.Var(&rawFlag{isBool: s.isBool}, s.flag, s.help)
		}
	}
	fs.Var(&rawFlag{}, configFlag, "YAML configuration file")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, flag.ErrHelp
		}
		return nil, fmt.Errorf("config: %v (see -h)", err)
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("config: unexpected argument %q: every setting is a flag such as -listen :8080 (see -h)", fs.Arg(0))
	}
	passed := map[string]string{}
	fs.Visit(func(f *flag.Flag) { passed[f.Name] = f.Value.String() })

	c := Default()
	c.origin = map[string]string{}

	// The file: -config beats V1GW_CONFIG. An explicit -config "" means none.
	if v, ok := passed[configFlag]; ok {
		c.ConfigFile, c.origin["config_file"] = strings.TrimSpace(v), "-"+configFlag
	} else if v := getenv(configEnv); v != "" {
		c.ConfigFile, c.origin["config_file"] = strings.TrimSpace(v), configEnv
	}
	var file *fileValues
	if c.ConfigFile != "" {
		var err error
		data, err := os.ReadFile(c.ConfigFile)
		if err != nil {
			return nil, fmt.Errorf("config: %s: %v", c.origin["config_file"], err)
		}
		if file, err = parseFile(c.ConfigFile, data); err != nil {
			return nil, fmt.Errorf("config: %v", err)
		}
	}

	for _, s := range settings {
		raw, where, ok := "", "", false
		if v, set := passed[s.flag]; s.flag != "" && set {
			raw, where, ok = v, "-"+s.flag, true
		} else if v := getenv(s.env); s.env != "" && v != "" {
			raw, where, ok = v, s.env, true
		} else if file != nil {
			if v, set := file.scalars[s.key]; set {
				raw, where, ok = v, c.ConfigFile+": "+s.key, true
			}
		}
		if !ok {
			continue
		}
		c.origin[s.key] = where
		if err := s.set(c, raw); err != nil {
			return nil, fmt.Errorf("config: %s: %v", where, err)
		}
	}
	if file != nil && file.keyLimits != nil {
		where := c.ConfigFile + ": key_limits"
		c.origin["key_limits"] = where
		c.KeyLimits = make(map[string]int, len(file.keyLimits))
		for _, id := range sortedKeys(file.keyLimits) {
			n, err := parseInt(file.keyLimits[id])
			if err != nil {
				return nil, fmt.Errorf("config: %s: key id %q: %v", where, id, err)
			}
			c.KeyLimits[id] = n
		}
	}
	if file != nil && file.migratedKeys != nil {
		where := c.ConfigFile + ": migrated_keys"
		c.origin["migrated_keys"] = where
		c.MigratedKeys = make(map[string]time.Time, len(file.migratedKeys))
		for _, id := range sortedKeys(file.migratedKeys) {
			t, err := parseSunset(file.migratedKeys[id])
			if err == nil && t.IsZero() {
				err = fmt.Errorf("must be the time from which the key is refused (RFC 3339 or YYYY-MM-DD), not empty")
			}
			if err != nil {
				return nil, fmt.Errorf("config: %s: key id %q: %v", where, id, err)
			}
			c.MigratedKeys[id] = t
		}
	}
	if file != nil && file.keyNames != nil {
		c.origin["key_names"] = c.ConfigFile + ": key_names"
		c.KeyNames = make(map[string]string, len(file.keyNames))
		for id, name := range file.keyNames {
			c.KeyNames[id] = strings.TrimSpace(name)
		}
	}

	if c.KeyHashSecret == "" {
		secret, err := generateSecret()
		if err != nil {
			return nil, fmt.Errorf("config: generating a key hash secret: %v", err)
		}
		c.KeyHashSecret, c.KeyHashSecretGenerated = secret, true
		delete(c.origin, "key_hash_secret")
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

func generateSecret() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

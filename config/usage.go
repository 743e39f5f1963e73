package config

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Usage prints every setting: its flag, environment variable, YAML key and
// default.
func Usage(w io.Writer) {
	var b strings.Builder
	b.WriteString(`Every setting comes from a flag, a V1GW_* environment variable or the YAML file
named by -config: a flag beats the environment, which beats the file, which
beats the default. An empty environment variable counts as unset.

Flags:
`)
	line := func(name, env, key, def, help string) {
		fmt.Fprintf(&b, "  %s\n", name)
		var src []string
		if env != "" {
			src = append(src, "env "+env)
		}
		if key != "" {
			src = append(src, "file "+key)
		}
		if def != "" {
			src = append(src, "default "+strconv.Quote(def))
		}
		fmt.Fprintf(&b, "        %s\n", help)
		if len(src) > 0 {
			fmt.Fprintf(&b, "        (%s)\n", strings.Join(src, ", "))
		}
	}
	line("-config FILE", configEnv, "", "", "YAML file with any of the settings below (file keys) and key_limits")
	for _, s := range settings {
		if s.flag == "" {
			continue
		}
		name := "-" + s.flag
		if s.arg != "" {
			name += " " + s.arg
		}
		line(name, s.env, s.key, s.def, s.help)
	}
	b.WriteString("\nEnvironment or file only (secrets do not belong on a command line):\n")
	for _, s := range settings {
		if s.flag != "" {
			continue
		}
		fmt.Fprintf(&b, "  %s / %s\n        %s\n        (default: %s)\n", s.env, s.key, s.help, s.def)
	}
	b.WriteString(`
File only:
  key_limits: {<key id>: <requests per minute>}
        per-key-id overrides of -rate-limit, 0 = unlimited; key ids are derived
        from V1GW_KEY_HASH_SECRET, which must then be set
  key_names: {<key id>: <label>}
        names shown next to key ids in the /usage report (who owns the key);
        needs V1GW_KEY_HASH_SECRET too
  -h, -help
        print this help
`)
	io.WriteString(w, b.String())
}

// Setting describes one setting and its names, for documentation and for
// the tests that check deployments and docs against this package.
type Setting struct {
	Key     string // YAML key
	Flag    string // flag name without "-" ("" when there is none)
	Env     string // environment variable ("" when there is none)
	Default string
	Help    string
}

// Settings lists every scalar setting, in the order of Usage, followed by
// the YAML-only map settings.
func Settings() []Setting {
	out := make([]Setting, 0, len(settings)+1)
	for _, s := range settings {
		out = append(out, Setting{Key: s.key, Flag: s.flag, Env: s.env, Default: s.def, Help: s.help})
	}
	out = append(out, Setting{Key: "key_limits", Help: "per-key-id rate-limit overrides (YAML only)"})
	out = append(out, Setting{Key: "key_names", Help: "per-key-id labels for the /usage report (YAML only)"})
	out = append(out, Setting{Key: "migrated_keys", Help: "key ids whose v1 calls are answered 410 from a given time (YAML only)"})
	return out
}

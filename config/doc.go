// Package config loads the gateway's one Config from flags, V1GW_*
// environment variables and an optional YAML file, and validates it.
//
// Precedence, per setting: a flag passed on the command line beats its
// environment variable, which beats the YAML file, which beats the default.
// An environment variable set to the empty string counts as unset.
//
// Every error is one line that names the setting and where its value came
// from, for example
//
//	config: V1GW_RATE_LIMIT_PER_MINUTE: "-5" must be >= 0
//	config: -compat-mode: "loose" must be one of strict, lenient
//	config: /etc/v1gateway.yaml: rate_limit_per_minute: "abc" is not an integer
//
// Secrets (the key-hash secret, a Redis password) never appear in errors or
// in Redacted.
//
// Where each part is:
//
//   - settings.go: Config and its documented fields, the Default* constants
//     and Default, and the settings table: one row per scalar setting, with
//     its flag, V1GW_* variable, YAML key, the help -h prints and the
//     function that sets it. Load, Usage and Settings walk that table (the
//     YAML file's fileConfig and Redacted name each key again).
//   - parse.go: how a setting's text becomes its value (integers,
//     durations, booleans, sunset times, enumerations, comma-separated
//     lists), the same rules and messages for every source.
//   - load.go: Load, the precedence of flag, environment variable, file and
//     default for each setting, the YAML-only maps (key_limits, key_names,
//     migrated_keys) and the generated key-hash secret.
//   - file.go: the YAML file: parseFile, checkNode (the shape of each
//     value, so that a type error names its setting) and fileConfig.
//   - validate.go: Validate and its checks (addresses, the upstream and
//     Redis URLs, limits, timeouts, key ids: IsKeyID), each error naming
//     where the value came from.
//   - redact.go: Redacted, the settings for the start-up log, and the
//     masking of secrets in URLs that it and the error messages share
//     (redactURL, showURL).
//   - usage.go: Usage, the text of -h, and Settings, the list that docs and
//     deployment tests are checked against.
package config

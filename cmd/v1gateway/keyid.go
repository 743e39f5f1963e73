package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/v1gateway/v1gateway/config"
	"github.com/v1gateway/v1gateway/limiter"
)

// maxKeyInput bounds what key-id reads from standard input.
const maxKeyInput = 64 << 10

// keyIDCommand is `v1gateway key-id [flags] < keyfile`: it reads one API key
// from standard input and prints its key id — the name the gateway gives the
// key in logs, metrics, /usage, key_limits and key_names — computed with
// V1GW_KEY_HASH_SECRET (or key_hash_secret of the -config file) exactly as
// the gateway does. The key itself is never printed, not even in errors.
func keyIDCommand(args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, err := config.Load(args, getenv)
	if errors.Is(err, flag.ErrHelp) {
		io.WriteString(stdout, `usage: v1gateway key-id [flags] < keyfile
  Reads one API key from standard input and prints its key id, computed with
  V1GW_KEY_HASH_SECRET (or key_hash_secret in the -config file), as the
  gateway does: paste it into key_limits or key_names. For example:
    printf '%s' "$RUNPOD_API_KEY" | V1GW_KEY_HASH_SECRET=... v1gateway key-id
  An "Authorization: Bearer" value is accepted too. The key is never printed.
`)
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "key-id:", err)
		return 2
	}
	if cfg.KeyHashSecretGenerated {
		fmt.Fprintln(stderr, "key-id: V1GW_KEY_HASH_SECRET (or key_hash_secret in -config) is not set: a key id depends on it; set it to the gateway's value")
		return 2
	}
	raw, err := io.ReadAll(io.LimitReader(stdin, maxKeyInput+1))
	if err != nil {
		fmt.Fprintln(stderr, "key-id: reading standard input:", err)
		return 2
	}
	key := strings.TrimSpace(string(raw))
	if len(key) >= 7 && strings.EqualFold(key[:7], "bearer ") {
		key = strings.TrimSpace(key[7:]) // as the gateway reads the header
	}
	switch {
	case key == "":
		io.WriteString(stderr, "key-id: no key on standard input (e.g. printf '%s' \"$KEY\" | v1gateway key-id)\n")
		return 2
	case len(raw) > maxKeyInput || strings.ContainsAny(key, " \t\r\n"):
		fmt.Fprintln(stderr, "key-id: standard input must hold one key (one word on one line); it is not shown")
		return 2
	}
	fmt.Fprintln(stdout, limiter.KeyID([]byte(cfg.KeyHashSecret), key))
	return 0
}

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/v1gateway/v1gateway/limiter"
)

func TestKeyIDPrintsTheIdOfTheKeyOnStandardInput(t *testing.T) {
	const secret, key = "team-secret", "rpa_SECRETKEY0123456789"
	want := limiter.KeyID([]byte(secret), key) + "\n"
	file := filepath.Join(t.TempDir(), "gw.yaml")
	if err := os.WriteFile(file, []byte("key_hash_secret: "+secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	withSecret := func(k string) string {
		if k == "V1GW_KEY_HASH_SECRET" {
			return secret
		}
		return ""
	}
	for _, tc := range []struct {
		name   string
		args   []string
		getenv func(string) string
		stdin  string
	}{
		{"the key alone, as printf writes it", nil, withSecret, key},
		{"with a trailing newline, as echo writes it", nil, withSecret, key + "\n"},
		{"as an Authorization header value", nil, withSecret, "Bearer " + key + "\r\n"},
		{"the secret from the -config file", []string{"-config", file}, noEnv, key},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := keyIDCommand(tc.args, tc.getenv, strings.NewReader(tc.stdin), &out, &errOut)
			if code != 0 || out.String() != want {
				t.Errorf("exit %d, printed %q (stderr %q); want 0 and %q", code, out.String(), errOut.String(), want)
			}
		})
	}
}

func TestKeyIDRefusesWithoutEchoingTheKey(t *testing.T) {
	const key = "rpa_SECRETKEY0123456789"
	withSecret := func(k string) string {
		if k == "V1GW_KEY_HASH_SECRET" {
			return "team-secret"
		}
		return ""
	}
	for _, tc := range []struct {
		name   string
		getenv func(string) string
		stdin  string
		want   string
	}{
		{"no secret: the id would be random", noEnv, key, "V1GW_KEY_HASH_SECRET"},
		{"nothing on standard input", withSecret, "\n", "no key on standard input"},
		{"two keys", withSecret, key + "\n" + key + "x\n", "one key"},
		{"a key with a space in it", withSecret, key + " " + key, "one key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := keyIDCommand(nil, tc.getenv, strings.NewReader(tc.stdin), &out, &errOut)
			if code != 2 || out.Len() != 0 {
				t.Errorf("exit %d, printed %q; want 2 and nothing on stdout", code, out.String())
			}
			if !strings.Contains(errOut.String(), tc.want) {
				t.Errorf("stderr %q does not contain %q", errOut.String(), tc.want)
			}
			if strings.Contains(errOut.String(), "SECRETKEY") {
				t.Errorf("stderr %q echoes the key", errOut.String())
			}
		})
	}
}

func TestKeyIDHelp(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := keyIDCommand([]string{"-h"}, noEnv, strings.NewReader(""), &out, &errOut); code != 0 || !strings.Contains(out.String(), "usage: v1gateway key-id") {
		t.Errorf("exit %d, printed %q", code, out.String())
	}
}

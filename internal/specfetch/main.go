// Command specfetch downloads the vendor's two OpenAPI documents (the v1 and
// v2 REST API contracts the contract tests check against) from the vendor's
// public documentation repository at a pinned commit, verifies their
// SHA-256, and stores them in a folder that the tests find (`make specs`:
// .specs at the repository root, ignored by git). Files already present with
// the pinned checksum are kept; nothing unverified is ever left in place.
//
//	go run ./internal/specfetch -dir .specs
//	go run ./internal/specfetch -dir .specs -verify   # check only, no network
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

// Commit is the pinned commit of the vendor's documentation repository
// (github.com/runpod/docs, "sync API reference from Frontdoor v2.9.0",
// 2026-08-18): the contracts the gateway was written and tested against.
const Commit = "098c7fb0c6c374b1d053f896757a2282bf18e796"

// DefaultBaseURL serves raw files of the documentation repository by commit.
const DefaultBaseURL = "https://raw.githubusercontent.com/runpod/docs"

// Spec is one document: the file name the tests load, its path in the
// documentation repository, and its SHA-256 at Commit.
type Spec struct {
	Name, Path, SHA256 string
}

// Pinned are the two documents.
var Pinned = []Spec{
	{"v1.openapi.json", "api-reference/openapi.json", "a8f5aebc4338883270a5d97f8b9a89ba4b7838d1c99f0a8392e117937caba57c"},
	{"v2.openapi.json", "api-reference-v2/openapi.json", "b8bce61c5a2290d28a7cb2ed53173637166817249986cb18b101b2fd651fd313"},
}

// maxSize bounds one download (the documents are 150–350 KB).
const maxSize = 16 << 20

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("specfetch", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", ".specs", "folder to store the documents in")
	base := fs.String("base-url", DefaultBaseURL, "raw-file URL of the documentation repository (the commit and path are appended)")
	verifyOnly := fs.Bool("verify", false, "only verify the documents already in -dir (no network)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	for _, s := range Pinned {
		dst := filepath.Join(*dir, s.Name)
		var err error
		switch {
		case *verifyOnly:
			err = VerifyFile(dst, s.SHA256)
		case VerifyFile(dst, s.SHA256) == nil:
			fmt.Fprintf(stdout, "specs: %s already present and verified\n", dst)
			continue
		default:
			ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
			err = Fetch(ctx, http.DefaultClient, *base, s, *dir)
			cancel()
		}
		if err != nil {
			fmt.Fprintln(stderr, "specs:", err)
			return 1
		}
		fmt.Fprintf(stdout, "specs: %s verified (sha256 %s)\n", dst, s.SHA256[:16])
	}
	return 0
}

// URL is where s is downloaded from at the pinned commit.
func (s Spec) URL(base string) string {
	return base + "/" + Commit + "/" + s.Path
}

// VerifyFile checks that the file at path has the SHA-256 sum (hex).
func VerifyFile(path, sum string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != sum {
		return fmt.Errorf("%s: sha256 %s, want %s (pinned at commit %s)", path, got, sum, Commit)
	}
	return nil
}

// Fetch downloads s into dir: to a temporary file first, which is renamed
// to s.Name only once its SHA-256 matches.
func Fetch(ctx context.Context, client *http.Client, base string, s Spec, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	url := s.URL(base)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("downloading %s: %v", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("downloading %s: %s", url, resp.Status)
	}
	tmp, err := os.CreateTemp(dir, s.Name+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename, a no-op
	n, err := io.Copy(tmp, io.LimitReader(resp.Body, maxSize+1))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("downloading %s: %v", url, err)
	}
	if n > maxSize {
		return fmt.Errorf("downloading %s: longer than %d bytes", url, maxSize)
	}
	if err := VerifyFile(tmp.Name(), s.SHA256); err != nil {
		return fmt.Errorf("downloaded %s: %v", url, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil { // CreateTemp made it 0600
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(dir, s.Name))
}

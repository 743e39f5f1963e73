// Command chartpackage packages the chart directory into a chart archive,
// <name>-<version>.tgz, as `helm package` does (the same Helm packages:
// chart/loader to load and check it, chartutil.Save to write it), so that
// `make chart` needs no helm binary.
//
//	go run ./cmd/chartpackage -out ../../bin [-app-version 1.4.2] v1gateway
package main

import (
	"flag"
	"fmt"
	"os"

	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
)

func main() {
	out := flag.String("out", ".", "directory to write the archive into")
	appVersion := flag.String("app-version", "", "set the chart's appVersion (the default image tag); empty: as in Chart.yaml")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: chartpackage [-out DIR] [-app-version V] CHART_DIR\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *out, *appVersion); err != nil {
		fmt.Fprintln(os.Stderr, "chartpackage:", err)
		os.Exit(1)
	}
}

func run(dir, out, appVersion string) error {
	c, err := loader.LoadDir(dir)
	if err != nil {
		return err
	}
	if appVersion != "" {
		c.Metadata.AppVersion = appVersion
	}
	if err := c.Validate(); err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	name, err := chartutil.Save(c, out)
	if err != nil {
		return err
	}
	fmt.Println(name)
	return nil
}

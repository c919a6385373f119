package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/perfilseguro/perfilseguro/tracing/localview"
)

// runTraces is the local trace viewer: an OTLP/HTTP receiver that keeps the last spans in memory
// and shows each trace as a tree, for `make run TRACES=1` and anyone without a collector.
func runTraces(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("traces", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:4318", "where to receive OTLP/HTTP and show the traces")
	if err := fs.Parse(args); err != nil {
		return errUsageShown
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: &localview.Collector{}, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	base := "http://" + ln.Addr().String()
	fmt.Fprintf(out, "Trazas locales en %s/\nExporta con OTEL_EXPORTER_OTLP_ENDPOINT=%s\n", base, base)
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

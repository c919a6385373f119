package worker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/provider/outbound"
)

// A partner proves it controls its origin (issue 54 item 12): a TXT record on the origin's host,
// or the file perfilseguro.OriginProofPath on the origin, holding perfilseguro.OriginProofValue of
// its token. The file is fetched over public addresses only (outbound.PublicOnlyClient, the
// webhooks' guard), without following redirects.

// TXTResolver looks up a name's TXT records (net.Resolver does).
type TXTResolver interface {
	LookupTXT(ctx context.Context, name string) ([]string, error)
}

// OriginDeps are what the origin check reaches outside with; tests give a fake resolver and a
// client that dials an httptest server.
type OriginDeps struct {
	Resolver   TXTResolver  // nil: net.DefaultResolver
	HTTPClient *http.Client // nil: outbound.PublicOnlyClient (public addresses only)
}

// originProofBody bounds what is read of the file.
const originProofBody = 4 << 10

func (w *Worker) routesOrigins() {
	w.mux.HandleFunc(jobs.TypeOriginProof, decoded("origin proof",
		func(p jobs.OriginProofPayload) bool { return p.PartnerID != 0 && p.Origin != "" }, w.handleOriginProof))
}

// handleOriginProof checks the partner's origin once and records the result (proven, or why not
// in the console's words); the partner asks again from the console.
func (w *Worker) handleOriginProof(ctx context.Context, p jobs.OriginProofPayload) error {
	store := postgres.Store{DB: w.deps.DB}
	proof, err := store.PartnerOriginProof(ctx, p.PartnerID)
	if errors.Is(err, postgres.ErrPartnerNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if proof.Origin != p.Origin { // changed since: its own check was asked for
		return nil
	}
	failure := w.proveOrigin(ctx, proof.Origin, perfilseguro.OriginProofValue(proof.Token))
	return store.RecordOriginCheck(ctx, p.PartnerID, proof.Origin, failure == "", failure, time.Now())
}

// proveOrigin answers "" when the TXT record or the file holds want, else why not, in Spanish.
func (w *Worker) proveOrigin(ctx context.Context, origin, want string) string {
	if perfilseguro.LoopbackOrigin(origin) {
		return "Un origen local (localhost) no se puede verificar desde internet; el modo de prueba funciona sin verificarlo."
	}
	u, err := url.Parse(origin)
	if err != nil || u.Hostname() == "" {
		return "El origen no es válido."
	}
	resolver := w.deps.Origins.Resolver
	if resolver == nil {
		resolver = net.DefaultResolver
	}
	records, _ := resolver.LookupTXT(ctx, u.Hostname()) // no record is not an error: the file may prove it
	for _, r := range records {
		if strings.TrimSpace(r) == want {
			return ""
		}
	}
	return w.proofFile(ctx, origin, want)
}

// proofFile fetches the origin's verification file and checks that it holds want.
func (w *Worker) proofFile(ctx context.Context, origin, want string) string {
	notFound := fmt.Sprintf("No encontramos el registro TXT «%s» en el DNS de tu dominio ni el archivo %s%s con ese texto.",
		want, origin, perfilseguro.OriginProofPath)
	hc := w.deps.Origins.HTTPClient
	if hc == nil {
		hc = outbound.PublicOnlyClient(10 * time.Second)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, origin+perfilseguro.OriginProofPath, nil)
	if err != nil {
		return notFound
	}
	req.Header.Set("User-Agent", "PerfilSeguro-OriginCheck/1")
	res, err := hc.Do(req)
	if errors.Is(err, outbound.ErrNotPublic) {
		return "Tu dominio no apunta a una dirección pública de internet: no podemos consultar el archivo de verificación."
	}
	if err != nil {
		return notFound + " No pudimos conectar con tu sitio."
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, originProofBody))
	if res.StatusCode != http.StatusOK {
		return fmt.Sprintf("%s Tu sitio respondió HTTP %d.", notFound, res.StatusCode)
	}
	for _, line := range strings.Split(string(body), "\n") {
		if strings.TrimSpace(line) == want {
			return ""
		}
	}
	return notFound
}

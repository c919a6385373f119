package api

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/go-fuego/fuego/option"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/jobs"
)

// The proof that a platform controls its origin (issue 54 item 12): the console shows the token
// to publish (a DNS TXT record or the /.well-known file) and the last check's result, and asks
// the worker to check. In production live mode needs the proof; test mode never does.

// ConsoleOriginProof is where the platform stands in proving its origin.
type ConsoleOriginProof struct {
	Origin string `json:"origin"`
	// Proven: the worker found the token for this origin.
	Proven    bool       `json:"proven"`
	ProvenAt  *time.Time `json:"provenAt"`
	CheckedAt *time.Time `json:"checkedAt"` // the last check (null: never, or the origin changed since)
	// CheckError is why the last check failed, in Spanish ("" when it passed or none ran).
	CheckError string `json:"checkError,omitempty"`
	// Local: a localhost origin, which nobody outside can check: test mode only.
	Local bool `json:"local"`
	// LiveNeedsProof: live keys open sessions only once the origin is proven (production).
	LiveNeedsProof bool `json:"liveNeedsProof"`
	// TXTName and TXTValue are the DNS TXT record that proves the origin.
	TXTName  string `json:"txtName"`
	TXTValue string `json:"txtValue"`
	// FileURL is where the same value may be served instead, as the only line of a text file.
	FileURL string `json:"fileUrl"`
	Message string `json:"message,omitempty"`
}

// errOriginUnproven refuses a live session while the platform's origin is not proven.
var errOriginUnproven = perfilseguro.Errorf(perfilseguro.ECONFLICT,
	"El origen de tu plataforma aún no está verificado, y el modo de producción lo requiere. Verifícalo en tu consola (/socios, Origen) con un registro TXT o un archivo; mientras tanto usa tus llaves de prueba.")

func (s *Server) mountPartnerConsoleOrigin() {
	fuego.Get(s.f, "/api/socios/origin", s.consoleOriginProof, consoleTag,
		option.Summary("El origen de tu plataforma y su verificación: el registro TXT o el archivo que lo prueba, y el resultado de la última revisión"))
	fuego.Post(s.f, "/api/socios/origin/verify", s.consoleVerifyOrigin, consoleTag, option.DefaultStatusCode(http.StatusAccepted),
		option.Summary("Revisar ahora el registro TXT o el archivo de verificación (propietario o desarrollador); el resultado aparece en unos segundos"))
}

// liveNeedsProof: in production a live key works only on a proven origin.
func (s *Server) liveNeedsProof() bool { return s.cfg.Production() }

// requireProvenOrigin refuses live use of a partner whose origin is not proven, where proof is required.
func (s *Server) requireProvenOrigin(ctx context.Context, partnerID int64) error {
	if !s.liveNeedsProof() {
		return nil
	}
	p, err := s.store.PartnerOriginProof(ctx, partnerID)
	if err != nil {
		return err
	}
	if !p.Proven {
		return errOriginUnproven
	}
	return nil
}

func (s *Server) originProofJSON(ctx context.Context, partnerID int64) (ConsoleOriginProof, error) {
	p, err := s.store.PartnerOriginProof(ctx, partnerID)
	if err != nil {
		return ConsoleOriginProof{}, err
	}
	out := ConsoleOriginProof{Origin: p.Origin, Proven: p.Proven, ProvenAt: p.ProvenAt, Local: perfilseguro.LoopbackOrigin(p.Origin),
		LiveNeedsProof: s.liveNeedsProof(), TXTValue: perfilseguro.OriginProofValue(p.Token), FileURL: p.Origin + perfilseguro.OriginProofPath}
	if u, err := url.Parse(p.Origin); err == nil {
		out.TXTName = u.Hostname()
	}
	if p.CheckedAt != nil {
		out.CheckedAt = p.CheckedAt
		if p.CheckError != nil {
			out.CheckError = *p.CheckError
		}
	}
	return out, nil
}

func (s *Server) consoleOriginProof(c fuego.ContextNoBody) (ConsoleOriginProof, error) {
	sess, err := s.consoleCall(c, consoleGuard{action: perfilseguro.PartnerRead})
	if err != nil {
		return ConsoleOriginProof{}, err
	}
	return s.originProofJSON(c.Request().Context(), sess.PartnerID)
}

// enqueueOriginProof asks the worker to check the partner's origin (a local one is never checked).
func (s *Server) enqueueOriginProof(ctx context.Context, partnerID int64, origin string) error {
	if perfilseguro.LoopbackOrigin(origin) {
		return nil
	}
	task, err := jobs.NewOriginProofTask(partnerID, origin, s.now())
	return jobs.Enqueue(ctx, s.queue, task, err)
}

func (s *Server) consoleVerifyOrigin(c fuego.ContextNoBody) (ConsoleOriginProof, error) {
	r := c.Request()
	sess, err := s.consoleCall(c, consoleGuard{action: perfilseguro.PartnerManageOrigin, audit: "partner_console.origin.verify", targetKind: "partner"})
	if err != nil {
		return ConsoleOriginProof{}, err
	}
	out, err := s.originProofJSON(r.Context(), sess.PartnerID)
	if err != nil {
		return ConsoleOriginProof{}, err
	}
	if out.Local {
		return ConsoleOriginProof{}, perfilseguro.FieldError("origin",
			"Un origen local (localhost) no se puede verificar desde internet; el modo de prueba funciona sin verificarlo.")
	}
	if err := s.enqueueOriginProof(r.Context(), sess.PartnerID, out.Origin); err != nil {
		return ConsoleOriginProof{}, err
	}
	out.Message = "Revisaremos tu registro TXT y tu archivo de verificación en unos segundos. Vuelve a cargar para ver el resultado."
	setStatus(c, http.StatusAccepted)
	return out, nil
}

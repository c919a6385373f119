package devsim

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/provider/didit"
)

// BiometricPath is where the simulator's hosted page lives: BiometricPath + "{session}".
const BiometricPath = "/dev/biometric/"

// Biometric plays Didit's hosted verification locally: sessions and the decisions pressed on
// its page live in dev_biometric_sessions, and decisions come back in Didit's v3 format so
// the real parser reads them.
type Biometric struct {
	DB      *sqlx.DB
	BaseURL string // PUBLIC_BASE_URL: the page's URL is BaseURL + BiometricPath + session
}

var _ perfilseguro.BiometricProvider = Biometric{}

// BiometricSession is one simulated session.
type BiometricSession struct {
	SessionID   string   `db:"session_id"`
	VendorData  string   `db:"vendor_data"`
	CallbackURL *string  `db:"callback_url"`
	Status      string   `db:"status"`
	FaceMatch   *float64 `db:"face_match"`
	Liveness    *float64 `db:"liveness"`
	Document    *string  `db:"document"`
	// DocumentData is the SimDocument shown with the decision (JSON); nil before one.
	DocumentData []byte     `db:"document_data"`
	CreatedAt    time.Time  `db:"created_at"`
	DecidedAt    *time.Time `db:"decided_at"`
}

// ErrUnknownSession is returned for a session the simulator never created.
var ErrUnknownSession = fmt.Errorf("devsim biometric: unknown session: %w", perfilseguro.ErrPermanent)

// CreateSession stores a new session for req.UserID and returns the simulator page as its URL.
func (b Biometric) CreateSession(ctx context.Context, req perfilseguro.BiometricSessionRequest) (perfilseguro.BiometricSession, error) {
	id := newUUID()
	vendor := strconv.FormatInt(req.UserID, 10)
	const q = `INSERT INTO dev_biometric_sessions (session_id, vendor_data, callback_url) VALUES ($1, $2, NULLIF($3, ''))`
	if _, err := b.DB.ExecContext(ctx, q, id, vendor, req.CallbackURL); err != nil {
		return perfilseguro.BiometricSession{}, fmt.Errorf("devsim create session: %w", err)
	}
	pageURL := strings.TrimRight(b.BaseURL, "/") + BiometricPath + id
	raw, _ := json.Marshal(map[string]any{"session_id": id, "url": pageURL, "vendor_data": vendor,
		"status": "Not Started", "callback": req.CallbackURL, "workflow_id": "devsim"})
	return perfilseguro.BiometricSession{SessionID: id, URL: pageURL, Raw: raw}, nil
}

// Session reads one simulated session.
func (b Biometric) Session(ctx context.Context, id string) (BiometricSession, error) {
	const q = `SELECT session_id, vendor_data, callback_url, status, face_match, liveness, document, document_data,
		created_at, decided_at
		FROM dev_biometric_sessions WHERE session_id = $1`
	var s BiometricSession
	if err := b.DB.GetContext(ctx, &s, q, id); err != nil {
		if errors.Is(err, context.Canceled) {
			return s, err
		}
		return s, fmt.Errorf("%w (%s)", ErrUnknownSession, err)
	}
	return s, nil
}

// simulated are the scores each decision comes with.
var simulated = map[string]struct {
	faceMatch, liveness float64
	document            string
}{
	perfilseguro.BiometricApproved: {92.5, 97.1, "Approved"},
	perfilseguro.BiometricDeclined: {31.0, 88.4, "Declined"},
	perfilseguro.BiometricInReview: {74.0, 90.2, "In Review"},
}

// Decidable reports whether a session still accepts a decision: new ones, and those in review.
func (s BiometricSession) Decidable() bool {
	return s.Status == perfilseguro.BiometricNotStarted || s.Status == perfilseguro.BiometricInProgress ||
		s.Status == perfilseguro.BiometricInReview
}

// Doc is the document kept with the decision; nil before one (or on a session decided before
// the stand-in played documents).
func (s BiometricSession) Doc() *SimDocument {
	if len(s.DocumentData) == 0 {
		return nil
	}
	var d SimDocument
	if err := json.Unmarshal(s.DocumentData, &d); err != nil {
		return nil
	}
	return &d
}

// DocumentFor is the session's default document: an INE in the name the person registered
// (users.nombre of the session's vendor_data), or in a stand-in name when there is none.
func (b Biometric) DocumentFor(ctx context.Context, s BiometricSession, today time.Time) SimDocument {
	var name string
	if id, err := strconv.ParseInt(s.VendorData, 10, 64); err == nil {
		const q = `SELECT nombre FROM users WHERE id = $1`
		_ = b.DB.GetContext(ctx, &name, q, id) // no such user: the stand-in name
	}
	return DefaultDocument(name, s.VendorData, today)
}

// Decide records the decision pressed on the page (Approved, Declined or In Review) with its
// scores and the session's default document (DocumentFor).
func (b Biometric) Decide(ctx context.Context, id, status string) (BiometricSession, error) {
	return b.DecideWith(ctx, id, status, nil)
}

// DecideWith records the decision with the document shown on the page; nil is DocumentFor's.
func (b Biometric) DecideWith(ctx context.Context, id, status string, doc *SimDocument) (BiometricSession, error) {
	sim, ok := simulated[status]
	if !ok {
		return BiometricSession{}, fmt.Errorf("devsim decide: unsupported status %q", status)
	}
	s, err := b.Session(ctx, id)
	if err != nil {
		return s, err
	}
	if !s.Decidable() {
		return s, fmt.Errorf("devsim decide: session %s is already %s", id, s.Status)
	}
	if doc == nil {
		d := b.DocumentFor(ctx, s, time.Now())
		doc = &d
	}
	data, err := json.Marshal(doc)
	if err != nil {
		return s, fmt.Errorf("devsim decide: %w", err)
	}
	const q = `UPDATE dev_biometric_sessions SET status = $2, face_match = $3, liveness = $4, document = $5,
		document_data = $6, decided_at = now() WHERE session_id = $1`
	if _, err := b.DB.ExecContext(ctx, q, id, status, sim.faceMatch, sim.liveness, sim.document, data); err != nil {
		return s, fmt.Errorf("devsim decide: %w", err)
	}
	return b.Session(ctx, id)
}

// decisionJSON is the session in the shape of Didit's GET /v3/session/{id}/decision/.
func (s BiometricSession) decisionJSON() map[string]any {
	d := map[string]any{"session_id": s.SessionID, "status": s.Status, "vendor_data": s.VendorData,
		"workflow_id": "devsim", "created_at": s.CreatedAt.UTC().Format(time.RFC3339)}
	if s.FaceMatch != nil {
		d["face_matches"] = []map[string]any{{"status": s.Status, "score": *s.FaceMatch}}
	}
	if s.Liveness != nil {
		d["liveness_checks"] = []map[string]any{{"status": s.Status, "score": *s.Liveness}}
	}
	if s.Document != nil {
		if doc := s.Doc(); doc != nil {
			d["id_verifications"] = []map[string]any{doc.idVerification(*s.Document)}
			d["database_validations"] = []map[string]any{doc.databaseValidation()}
		} else {
			d["id_verifications"] = []map[string]any{{"status": *s.Document, "document_type": "Identity Card", "issuing_state": "MEX"}}
		}
	}
	return d
}

// GetDecision returns the session's current decision through Didit's own parser.
func (b Biometric) GetDecision(ctx context.Context, sessionID string) (perfilseguro.BiometricDecision, error) {
	s, err := b.Session(ctx, sessionID)
	if err != nil {
		return perfilseguro.BiometricDecision{}, err
	}
	raw, err := json.Marshal(s.decisionJSON())
	if err != nil {
		return perfilseguro.BiometricDecision{}, err
	}
	return didit.ParseDecision(raw)
}

// WebhookBody is the status.updated webhook Didit would send for the session now.
func (s BiometricSession) WebhookBody(now time.Time) []byte {
	body, _ := json.Marshal(map[string]any{"session_id": s.SessionID, "status": s.Status, "webhook_type": "status.updated",
		"vendor_data": s.VendorData, "created_at": now.Unix(), "timestamp": now.Unix(), "decision": s.decisionJSON()})
	return body
}

// newUUID returns a random version-4 UUID, the form of Didit's session ids.
func newUUID() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

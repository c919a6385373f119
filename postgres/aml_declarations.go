package postgres

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/perfilseguro/perfilseguro/expediente"
)

// The know-your-client declaration (issue 53 item 2; tables in 0037, the session's amlProfile in
// 0038): each signed version is a row that never changes; a correction is the next version. The
// answers and the exact text are sealed with the document key, the text's SHA-256 kept in clear.

// EventAMLDeclarationUpdated tells a business that a person it received a declaration from
// signed a new version (shared with it by the same act).
const EventAMLDeclarationUpdated = "aml.declaration_updated"

// AMLDeclaration is one signed version, opened.
type AMLDeclaration struct {
	ID         int64
	UserID     int64
	TestMode   bool
	Version    int
	Answers    expediente.Answers
	Text       string
	TextSHA256 string
	Method     string // passkey or codigo
	Evidence   json.RawMessage
	SignedAt   time.Time
	// SharedWith is how many businesses a new version was shared with (InsertAMLDeclaration only).
	SharedWith int
}

// NewAMLDeclaration is a declaration about to be signed.
type NewAMLDeclaration struct {
	UserID   int64
	TestMode bool
	Answers  expediente.Answers
	Text     string // the exact text the person reviewed
	Method   string
	Evidence any // marshalled as JSON
	Now      time.Time
}

type declarationRow struct {
	ID            int64           `db:"id"`
	UserID        *int64          `db:"user_id"`
	TestMode      bool            `db:"test_mode"`
	Version       int             `db:"version"`
	AnswersSealed string          `db:"answers_sealed"`
	TextSealed    string          `db:"text_sealed"`
	TextSHA256    string          `db:"text_sha256"`
	Method        string          `db:"method"`
	Evidence      json.RawMessage `db:"evidence"`
	SignedAt      time.Time       `db:"signed_at"`
}

const declarationColumns = `d.id, d.user_id, d.test_mode, d.version, d.answers_sealed, d.text_sealed, d.text_sha256, d.method, d.evidence, d.signed_at`

func (s *Store) openDeclaration(r declarationRow) (AMLDeclaration, error) {
	d := AMLDeclaration{ID: r.ID, TestMode: r.TestMode, Version: r.Version, TextSHA256: r.TextSHA256, Method: r.Method,
		Evidence: r.Evidence, SignedAt: r.SignedAt}
	if r.UserID != nil {
		d.UserID = *r.UserID
	}
	raw, err := s.Documents.Sealer.Open(r.AnswersSealed)
	if err != nil {
		return AMLDeclaration{}, fmt.Errorf("open declaration %d answers: %w", r.ID, err)
	}
	if err := json.Unmarshal([]byte(raw), &d.Answers); err != nil {
		return AMLDeclaration{}, fmt.Errorf("declaration %d answers: %w", r.ID, err)
	}
	if d.Text, err = s.Documents.Sealer.Open(r.TextSealed); err != nil {
		return AMLDeclaration{}, fmt.Errorf("open declaration %d text: %w", r.ID, err)
	}
	return d, nil
}

func (s *Store) openDeclarations(rows []declarationRow) ([]AMLDeclaration, error) {
	out := make([]AMLDeclaration, 0, len(rows))
	for _, r := range rows {
		d, err := s.openDeclaration(r)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// TextSHA256 is the hex SHA-256 of a declaration's text, as stored.
func TextSHA256(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// InsertAMLDeclaration stores the person's next version in tx (the code's use or the passkey's
// assertion commits with it) and shares it with every business that received an earlier version
// and still has the person's access in that mode, each told by aml.declaration_updated (the
// share's notified_at). It returns the new version and the notifications' ids to queue.
func (s *Store) InsertAMLDeclaration(ctx context.Context, tx *sqlx.Tx, n NewAMLDeclaration) (AMLDeclaration, []int64, error) {
	answers, err := json.Marshal(n.Answers)
	if err != nil {
		return AMLDeclaration{}, nil, err
	}
	evidence, err := json.Marshal(n.Evidence)
	if err != nil {
		return AMLDeclaration{}, nil, err
	}
	// The user's row serialises two signatures of the same person: each gets its own version.
	if _, err := tx.ExecContext(ctx, `SELECT 1 FROM users WHERE id = $1 FOR UPDATE`, n.UserID); err != nil {
		return AMLDeclaration{}, nil, fmt.Errorf("lock user %d: %w", n.UserID, err)
	}
	var r declarationRow
	err = tx.GetContext(ctx, &r, `INSERT INTO aml_declarations AS d
		(user_id, test_mode, version, answers_sealed, text_sealed, text_sha256, method, evidence, signed_at)
		SELECT $1, $2, coalesce(max(version), 0) + 1, $3, $4, $5, $6, $7, $8
		FROM aml_declarations WHERE user_id = $1 AND test_mode = $2
		RETURNING `+declarationColumns,
		n.UserID, n.TestMode, s.Documents.Sealer.Seal(string(answers)), s.Documents.Sealer.Seal(n.Text),
		TextSHA256(n.Text), n.Method, evidence, n.Now)
	if err != nil {
		return AMLDeclaration{}, nil, fmt.Errorf("insert declaration of user %d: %w", n.UserID, err)
	}
	d, err := s.openDeclaration(r)
	if err != nil {
		return AMLDeclaration{}, nil, err
	}
	ids, shared, err := s.reshareDeclaration(ctx, tx, d, n.Now)
	d.SharedWith = shared
	return d, ids, err
}

// reshareDeclaration shares a new version with the businesses that hold an earlier one and still
// have the person's access (a current grant in the mode), and writes each one's notification
// (only businesses with a webhook get a delivery). It returns the deliveries and how many shared.
func (s *Store) reshareDeclaration(ctx context.Context, tx *sqlx.Tx, d AMLDeclaration, now time.Time) ([]int64, int, error) {
	var partners []struct {
		PartnerID int64   `db:"partner_id"`
		SessionID *string `db:"partner_session_id"`
	}
	if err := tx.SelectContext(ctx, &partners, `SELECT DISTINCT ON (sh.partner_id) sh.partner_id, sh.partner_session_id
		FROM aml_declaration_shares sh JOIN aml_declarations old ON old.id = sh.declaration_id
		WHERE old.user_id = $1 AND old.test_mode = $2 AND old.version < $3
		  AND EXISTS (SELECT 1 FROM partner_grants g WHERE g.partner_id = sh.partner_id AND g.user_id = $1
			AND g.livemode = NOT $2 AND g.revoked_at IS NULL)
		ORDER BY sh.partner_id, old.version DESC`, d.UserID, d.TestMode, d.Version); err != nil {
		return nil, 0, fmt.Errorf("businesses of declaration %d: %w", d.ID, err)
	}
	var ids []int64
	for _, p := range partners {
		sessions := []SessionRef{}
		if err := tx.SelectContext(ctx, &sessions, `SELECT id, reference FROM partner_sessions
			WHERE user_id = $1 AND partner_id = $2 AND livemode = NOT $3 AND status = 'completed' AND aml_profile
			  AND shared_reason IS NULL ORDER BY created_at DESC, id DESC`, d.UserID, p.PartnerID, d.TestMode); err != nil {
			return nil, 0, fmt.Errorf("sessions for declaration %d: %w", d.ID, err)
		}
		payload, err := json.Marshal(map[string]any{"event": EventAMLDeclarationUpdated, "livemode": !d.TestMode,
			"version": d.Version, "signedAt": d.SignedAt.UTC(), "sessions": sessions})
		if err != nil {
			return nil, 0, err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO aml_declaration_shares (declaration_id, partner_id, partner_session_id, shared_at, notified_at)
			VALUES ($1, $2, $3, $4, $4) ON CONFLICT DO NOTHING`, d.ID, p.PartnerID, p.SessionID, now); err != nil {
			return nil, 0, fmt.Errorf("share declaration %d: %w", d.ID, err)
		}
		var id int64
		err = tx.GetContext(ctx, &id, `INSERT INTO partner_deliveries (partner_id, user_id, event, payload)
			SELECT k.id, $2, $3, $4 FROM api_keys k WHERE k.id = $1 AND k.is_active AND k.webhook_url IS NOT NULL RETURNING id`,
			p.PartnerID, d.UserID, EventAMLDeclarationUpdated, payload)
		if isNoRows(err) {
			continue
		}
		if err != nil {
			return nil, 0, fmt.Errorf("notify declaration %d: %w", d.ID, err)
		}
		ids = append(ids, id)
	}
	return ids, len(partners), nil
}

// AMLDeclarations are the person's signed versions in a mode, newest first.
func (s *Store) AMLDeclarations(ctx context.Context, userID int64, testMode bool) ([]AMLDeclaration, error) {
	var rows []declarationRow
	if err := s.DB.SelectContext(ctx, &rows, `SELECT `+declarationColumns+` FROM aml_declarations d
		WHERE d.user_id = $1 AND d.test_mode = $2 ORDER BY d.version DESC`, userID, testMode); err != nil {
		return nil, fmt.Errorf("declarations of user %d: %w", userID, err)
	}
	return s.openDeclarations(rows)
}

// CurrentAMLDeclaration is the person's newest version in a mode; nil when they signed none.
func (s *Store) CurrentAMLDeclaration(ctx context.Context, userID int64, testMode bool) (*AMLDeclaration, error) {
	r, err := getOptional[declarationRow](ctx, s.DB, "current declaration", `SELECT `+declarationColumns+` FROM aml_declarations d
		WHERE d.user_id = $1 AND d.test_mode = $2 ORDER BY d.version DESC LIMIT 1`, userID, testMode)
	if err != nil || r == nil {
		return nil, err
	}
	d, err := s.openDeclaration(*r)
	return &d, err
}

// SessionAMLDeclaration is the newest version a person shared with the session's business (in
// the session or by a later correction); nil when none. The caller shows it only while the
// session's claims are shared.
func (s *Store) SessionAMLDeclaration(ctx context.Context, v PartnerVerificationSession) (*AMLDeclaration, error) {
	if !v.AMLProfile || v.UserID == nil {
		return nil, nil
	}
	r, err := getOptional[declarationRow](ctx, s.DB, "session declaration", `SELECT `+declarationColumns+`
		FROM aml_declarations d JOIN aml_declaration_shares sh ON sh.declaration_id = d.id
		WHERE sh.partner_id = $1 AND d.user_id = $2 AND d.test_mode = NOT $3
		ORDER BY d.version DESC LIMIT 1`, v.PartnerID, *v.UserID, v.Livemode)
	if err != nil || r == nil {
		return nil, err
	}
	d, err := s.openDeclaration(*r)
	return &d, err
}

// AMLDeclarationShare is which business received a version of the person's declaration.
type AMLDeclarationShare struct {
	Version     int        `db:"version" json:"version"`
	PartnerName string     `db:"partner_name" json:"partnerName"`
	SharedAt    time.Time  `db:"shared_at" json:"sharedAt"`
	NotifiedAt  *time.Time `db:"notified_at" json:"notifiedAt"`
}

// AMLDeclarationShares lists who received each of the person's versions in a mode, newest first.
func (s *Store) AMLDeclarationShares(ctx context.Context, userID int64, testMode bool) ([]AMLDeclarationShare, error) {
	out := []AMLDeclarationShare{}
	err := s.DB.SelectContext(ctx, &out, `SELECT d.version, a.partner_name, sh.shared_at, sh.notified_at
		FROM aml_declaration_shares sh JOIN aml_declarations d ON d.id = sh.declaration_id JOIN api_keys a ON a.id = sh.partner_id
		WHERE d.user_id = $1 AND d.test_mode = $2 ORDER BY d.version DESC, sh.shared_at DESC`, userID, testMode)
	if err != nil {
		return nil, fmt.Errorf("declaration shares of user %d: %w", userID, err)
	}
	return out, nil
}

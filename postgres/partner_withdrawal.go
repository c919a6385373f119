package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// What a partner keeps of a person after the person withdraws its access (Mi Perfil ›
// Plataformas con acceso) or deletes their account (DECISIONS.md, "Origin never acts as a
// partner"): the status of each session, never what was shared. The shared claims and the proof
// of the completed sessions are blanked in the transaction of the withdrawal or the deletion, with
// the reason beside them (sql/migrations/0024_shared_withdrawn.sql), and the stored
// verification_session.completed notifications of those sessions are rewritten to the status-only
// form, so neither a retry nor a resend from the console sends the data again.

// Reasons a completed session's shared data is gone (partner_sessions.shared_reason).
const (
	SharedWithdrawn = "withdrawn" // the person withdrew the partner's access
	SharedDeleted   = "deleted"   // the person's account was deleted
)

// blankSharedQuery blanks what a person shared in their completed sessions, with one partner in
// one mode ($2 its id, $3 the mode) or with every partner ($2 = 0), giving the reason $4; it
// rewrites those sessions' stored completion notifications alike and returns the blanked
// sessions. A session already blanked for the same reason is left as it is.
const blankSharedQuery = `WITH blanked AS (
		UPDATE partner_sessions SET shared = NULL, proof = NULL, shared_reason = $4
		WHERE user_id = $1 AND status = 'completed' AND ($2::bigint = 0 OR (partner_id = $2 AND livemode = $3))
			AND shared_reason IS DISTINCT FROM $4
		RETURNING id, partner_id),
	hooks AS (
		UPDATE partner_deliveries d
		SET payload = (d.payload - 'claims' - 'proof' - 'unavailableClaims') || jsonb_build_object('shared', NULL, 'sharedReason', $4::text)
		FROM blanked b WHERE d.partner_id = b.partner_id AND d.event = 'verification_session.completed' AND d.payload->>'id' = b.id)
	SELECT id FROM blanked`

// blankShared runs blankSharedQuery in tx; partnerID 0 is every partner (live is then ignored).
func blankShared(ctx context.Context, tx *sqlx.Tx, userID, partnerID int64, live bool, reason string) ([]string, error) {
	var ids []string
	if err := tx.SelectContext(ctx, &ids, blankSharedQuery, userID, partnerID, live, reason); err != nil {
		return nil, fmt.Errorf("blank shared data of user %d (%s): %w", userID, reason, err)
	}
	return ids, nil
}

// SessionRef names a verification session the way its partner knows it: its id and the partner's
// own reference.
type SessionRef struct {
	ID        string `db:"id" json:"id"`
	Reference string `db:"reference" json:"reference"`
}

// accessRevokedPayload is the body of profile.access_revoked: the person as the partner already
// knows them (the sessions they completed with it in that mode, newest first; their profile ID
// only if they had shared it), never more.
func accessRevokedPayload(g Grant, sessions []SessionRef, profileID string, now time.Time) ([]byte, error) {
	body := map[string]any{"event": EventAccessRevoked, "livemode": g.Livemode, "revokedAt": now.UTC(), "sessions": sessions}
	for _, c := range g.Claims {
		if c == "profileId" && profileID != "" {
			body["profileId"] = profileID
		}
	}
	return json.Marshal(body)
}

// EventDeleted tells a partner the person it was sharing with deleted their account.
const EventDeleted = "profile.deleted"

// deletedNoticeQuery writes, for a person ($1) about to be deleted, one profile.deleted
// notification per partner and mode they are sharing with (a current grant), naming them as
// profile.access_revoked does: the sessions they completed with that partner in that mode, with
// its references, and the profile ID only if they shared it with that partner. A partner the
// person never shared with, or whose access they withdrew, hears nothing: it has no session to
// recognise them by, and a withdrawal already told it. user_id stays NULL: the person is gone.
const deletedNoticeQuery = `INSERT INTO partner_deliveries (partner_id, user_id, event, payload)
	SELECT g.partner_id, NULL, '` + EventDeleted + `',
		jsonb_build_object('event', '` + EventDeleted + `', 'livemode', g.livemode, 'deletedAt', now(),
			'sessions', coalesce((SELECT jsonb_agg(jsonb_build_object('id', s.id, 'reference', s.reference)
				ORDER BY s.created_at DESC, s.id DESC) FROM partner_sessions s
				WHERE s.user_id = g.user_id AND s.partner_id = g.partner_id AND s.livemode = g.livemode AND s.status = 'completed'), '[]'))
		|| CASE WHEN 'profileId' = ANY (g.claims) AND u.id_validado IS NOT NULL
			THEN jsonb_build_object('profileId', u.id_validado) ELSE '{}' END
	FROM partner_grants g
	JOIN api_keys k ON k.id = g.partner_id AND k.is_active AND k.webhook_url IS NOT NULL
	JOIN users u ON u.id = g.user_id
	WHERE g.user_id = $1 AND g.revoked_at IS NULL`

// RevokeGrant withdraws a partner's access to the person's data: the grant ends, the shared data
// of every session the person completed with that partner in that mode is blanked
// (SharedWithdrawn), and the partner's profile.access_revoked notification is written, all in one
// transaction; the notification's id is returned (0: the partner has no webhook).
func (s *Store) RevokeGrant(ctx context.Context, userID, grantID int64, now time.Time) (Grant, int64, error) {
	var g Grant
	var deliveryID int64
	err := s.InTx(ctx, func(tx *sqlx.Tx) error {
		err := getOne(ctx, tx, &g, ErrGrantNotFound, fmt.Sprintf("revoke grant %d", grantID),
			`WITH r AS (UPDATE partner_grants SET revoked_at = $3
				WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING *)
			SELECT `+grantColumns+` FROM r g JOIN api_keys a ON a.id = g.partner_id`, grantID, userID, now)
		if err != nil {
			return err
		}
		if _, err := blankShared(ctx, tx, userID, g.PartnerID, g.Livemode, SharedWithdrawn); err != nil {
			return err
		}
		sessions := []SessionRef{}
		if err := tx.SelectContext(ctx, &sessions, `SELECT id, reference FROM partner_sessions
			WHERE user_id = $1 AND partner_id = $2 AND livemode = $3 AND status = 'completed'
			ORDER BY created_at DESC, id DESC`, userID, g.PartnerID, g.Livemode); err != nil {
			return fmt.Errorf("sessions of revoked grant %d: %w", grantID, err)
		}
		var profileID string
		if err := tx.GetContext(ctx, &profileID, `SELECT coalesce(id_validado, '') FROM users WHERE id = $1`, userID); err != nil {
			return fmt.Errorf("revoke grant %d: %w", grantID, err)
		}
		payload, err := accessRevokedPayload(g, sessions, profileID, now)
		if err != nil {
			return err
		}
		err = tx.GetContext(ctx, &deliveryID, `INSERT INTO partner_deliveries (partner_id, user_id, event, payload)
			SELECT k.id, $2, $3, $4 FROM api_keys k WHERE k.id = $1 AND k.is_active AND k.webhook_url IS NOT NULL RETURNING id`,
			g.PartnerID, userID, EventAccessRevoked, payload)
		if isNoRows(err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("notify access revoked: %w", err)
		}
		return nil
	})
	return g, deliveryID, err
}

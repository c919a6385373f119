package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// Audit actor kinds and outcomes (audit_events.actor_kind, audit_events.outcome).
const (
	ActorAdmin  = "admin"
	ActorPerson = "person"
	ActorSystem = "system"

	OutcomeOK     = "ok"
	OutcomeDenied = "denied"
	OutcomeFailed = "failed"
)

// Change is one field's value before and after an edit.
type Change struct {
	Before any `json:"before,omitempty"` // absent: the field was empty (or created)
	After  any `json:"after,omitempty"`  // absent: the field was emptied (or deleted)
}

// AuditEvent is one row of the append-only audit trail (0017).
type AuditEvent struct {
	ID         int64             `json:"id"`
	At         time.Time         `json:"at"`                // set by the database when zero
	ActorKind  string            `json:"actorKind"`         // ActorAdmin, ActorPerson or ActorSystem
	ActorID    *int64            `json:"actorId"`           // admins.id or users.id
	ActorLabel string            `json:"actorLabel"`        // e-mail or profile ID at the time
	Action     string            `json:"action"`            // e.g. "user.revoke", "admin.signin"
	TargetKind string            `json:"targetKind"`        // e.g. "user", "partner", "admin"
	TargetID   string            `json:"targetId"`          // the target's id as text
	IP         string            `json:"ip"`                // the actor's address
	UserAgent  string            `json:"userAgent"`         // the actor's browser
	Changes    map[string]Change `json:"changes,omitempty"` // edits only; never a secret or token
	Outcome    string            `json:"outcome"`           // OutcomeOK, OutcomeDenied or OutcomeFailed
	// TargetLabel names the target as it is now, when read (AuditEvents): a person's profile ID, a
	// passkey's, partner's or team member's name or e-mail; empty when it is gone.
	TargetLabel string `json:"targetLabel"`
}

// auditRow is how audit_events is read.
type auditRow struct {
	ID         int64     `db:"id"`
	At         time.Time `db:"at"`
	ActorKind  string    `db:"actor_kind"`
	ActorID    *int64    `db:"actor_id"`
	ActorLabel *string   `db:"actor_label"`
	Action     string    `db:"action"`
	TargetKind *string   `db:"target_kind"`
	TargetID   *string   `db:"target_id"`
	IP         *string   `db:"ip"`
	UserAgent  *string   `db:"user_agent"`
	Changes    []byte    `db:"changes"`
	Outcome    string    `db:"outcome"`
	Label      *string   `db:"target_label"`
}

func (r auditRow) event() AuditEvent {
	e := AuditEvent{ID: r.ID, At: r.At, ActorKind: r.ActorKind, ActorID: r.ActorID, ActorLabel: deref(r.ActorLabel),
		Action: r.Action, TargetKind: deref(r.TargetKind), TargetID: deref(r.TargetID), IP: deref(r.IP),
		UserAgent: deref(r.UserAgent), Outcome: r.Outcome, TargetLabel: deref(r.Label)}
	if len(r.Changes) > 0 {
		_ = json.Unmarshal(r.Changes, &e.Changes)
	}
	return e
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// AppendAudit appends one event to the audit trail, inside the caller's transaction when q is one.
func AppendAudit(ctx context.Context, q sqlx.ExecerContext, e AuditEvent) error {
	const stmt = `INSERT INTO audit_events (at, actor_kind, actor_id, actor_label, action, target_kind, target_id,
		ip, user_agent, changes, outcome) VALUES (coalesce($1, now()), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`
	var at *time.Time
	if !e.At.IsZero() {
		at = &e.At
	}
	var changes []byte
	if len(e.Changes) > 0 {
		var err error
		if changes, err = json.Marshal(e.Changes); err != nil {
			return fmt.Errorf("audit %s: %w", e.Action, err)
		}
	}
	if e.Outcome == "" {
		e.Outcome = OutcomeOK
	}
	ua := e.UserAgent
	if len(ua) > 500 {
		ua = ua[:500]
	}
	_, err := q.ExecContext(ctx, stmt, at, e.ActorKind, e.ActorID, nullable(e.ActorLabel), e.Action,
		nullable(e.TargetKind), nullable(e.TargetID), nullable(e.IP), nullable(ua), changes, e.Outcome)
	if err != nil {
		return fmt.Errorf("audit %s: %w", e.Action, err)
	}
	return nil
}

// AuditFilter selects and pages audit events (every field optional).
type AuditFilter struct {
	Actor  string    // substring of the actor's label (e-mail or profile ID), or an exact actor id
	Action string    // an action ("user.revoke") or a prefix ending in '.' ("user.")
	Target string    // a target id, or "kind:id"
	From   time.Time // inclusive
	To     time.Time // exclusive
	Limit  int       // 0: no limit
	Offset int
}

// AuditEvents returns the events matching f, newest first, with the total before paging.
func (s *Store) AuditEvents(ctx context.Context, f AuditFilter) ([]AuditEvent, int, error) {
	var conds []string
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	if a := strings.TrimSpace(f.Actor); a != "" {
		conds = append(conds, fmt.Sprintf("(lower(actor_label) LIKE %s OR actor_id::text = %s)",
			arg("%"+escapeLike(strings.ToLower(a))+"%"), arg(a)))
	}
	if a := strings.TrimSpace(f.Action); a != "" {
		if strings.HasSuffix(a, ".") {
			conds = append(conds, "action LIKE "+arg(escapeLike(a)+"%"))
		} else {
			conds = append(conds, "action = "+arg(a))
		}
	}
	if t := strings.TrimSpace(f.Target); t != "" {
		if kind, id, ok := strings.Cut(t, ":"); ok {
			conds = append(conds, fmt.Sprintf("(target_kind = %s AND target_id = %s)", arg(kind), arg(id)))
		} else {
			conds = append(conds, "target_id = "+arg(t))
		}
	}
	if !f.From.IsZero() {
		conds = append(conds, "at >= "+arg(f.From))
	}
	if !f.To.IsZero() {
		conds = append(conds, "at < "+arg(f.To))
	}
	where := ""
	if len(conds) > 0 {
		where = " WHERE " + strings.Join(conds, " AND ")
	}
	page := " ORDER BY at DESC, id DESC"
	if f.Limit > 0 {
		page += fmt.Sprintf(" LIMIT %d OFFSET %d", f.Limit, max(f.Offset, 0))
	}
	const cols = `SELECT id, at, actor_kind, actor_id, actor_label, action, target_kind, target_id, ip, user_agent,
		changes, outcome, ` + auditTargetLabel + ` AS target_label FROM audit_events`
	rows, total, err := countAndList[auditRow](ctx, s, "audit events", `SELECT count(*) FROM audit_events`+where, cols+where+page, args...)
	if err != nil {
		return nil, 0, err
	}
	out := make([]AuditEvent, len(rows))
	for i, r := range rows {
		out[i] = r.event()
	}
	return out, total, nil
}

// auditTargetLabel names an event's target as it is now, through the primary keys (target_id is
// text: a numeric one is compared as a bigint, so each lookup is one index probe).
const auditTargetLabel = `(WITH t(id) AS (SELECT CASE WHEN target_id ~ '^[0-9]{1,18}$' THEN target_id::bigint END)
	SELECT CASE target_kind
		WHEN 'user' THEN (SELECT u.id_validado FROM users u, t WHERE u.id = t.id)
		WHEN 'passkey' THEN (SELECT w.name FROM webauthn_credentials w, t WHERE w.id = t.id)
		WHEN 'partner' THEN (SELECT k.partner_name FROM api_keys k, t WHERE k.id = t.id)
		WHEN 'admin' THEN (SELECT a.email FROM admins a, t WHERE a.id = t.id)
		WHEN 'partner_user' THEN (SELECT p.email FROM partner_users p, t WHERE p.id = t.id)
	END)`

// deleteOldAudit erases audit events older than before: the one deletion the append-only trigger
// allows, because this transaction says it is the retention run (SET LOCAL).
func (s *Store) deleteOldAudit(ctx context.Context, before time.Time) (int64, error) {
	var n int64
	err := s.InTx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, `SET LOCAL perfilseguro.retention = 'on'`); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM audit_events WHERE at < $1`, before)
		if err != nil {
			return err
		}
		n, _ = res.RowsAffected()
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("retention audit events: %w", err)
	}
	return n, nil
}

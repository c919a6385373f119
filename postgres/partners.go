package postgres

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// PermissionWidgetAuth lets a partner's pages use the widget sign-in (the default permission).
const PermissionWidgetAuth = "widget_auth"

// Partner is a third-party platform allowed to embed the widget from its domain (an api_keys row).
type Partner struct {
	ID            int64      `json:"id"`
	KeyID         string     `json:"keyId"`       // public identifier, "pk_" + 24 hex
	PartnerName   string     `json:"partnerName"` // at least 3 characters
	Domain        string     `json:"domain"`      // an origin: scheme://host[:port], lower-case
	IsActive      bool       `json:"isActive"`
	Permissions   []string   `json:"permissions"`
	RequestsCount int64      `json:"requestsCount"`
	LastUsedAt    *time.Time `json:"lastUsedAt"`
	CreatedAt     time.Time  `json:"createdAt"`
	CreatedBy     *string    `json:"createdBy"`
	Notes         *string    `json:"notes"`
}

type partnerRow struct {
	ID            int64          `db:"id"`
	KeyID         string         `db:"key_id"`
	PartnerName   string         `db:"partner_name"`
	Domain        string         `db:"domain"`
	IsActive      bool           `db:"is_active"`
	Permissions   pq.StringArray `db:"permissions"`
	RequestsCount int64          `db:"requests_count"`
	LastUsedAt    *time.Time     `db:"last_used_at"`
	CreatedAt     time.Time      `db:"created_at"`
	CreatedBy     *string        `db:"created_by"`
	Notes         *string        `db:"notes"`
}

func (r partnerRow) partner() Partner {
	return Partner{ID: r.ID, KeyID: r.KeyID, PartnerName: r.PartnerName, Domain: r.Domain, IsActive: r.IsActive,
		Permissions: []string(r.Permissions), RequestsCount: r.RequestsCount, LastUsedAt: r.LastUsedAt,
		CreatedAt: r.CreatedAt, CreatedBy: r.CreatedBy, Notes: r.Notes}
}

const partnerColumns = `id, key_id, partner_name, domain, is_active, permissions, requests_count,
	last_used_at, created_at, created_by, notes`

const selectPartner = `SELECT ` + partnerColumns + ` FROM api_keys `

// NewPartner is what an administrator or operator submits to add a partner.
type NewPartner struct {
	PartnerName string
	Domain      string
	Permissions []string
	CreatedBy   string
	Notes       string
	// Ours are Perfil Seguro's own origins (config.Config.OwnOrigins): a partner cannot claim them.
	Ours []string
}

var permissionPattern = regexp.MustCompile(`^[a-z][a-z0-9_]{1,39}$`)

// Normalize applies SPEC §5 'Partner creation': partnerName at least 3 characters, domain at least 3
// (stored as an origin so the widget can match it against the Origin header), permissions default
// widget_auth, createdBy and notes optional (trimmed).
func (p *NewPartner) Normalize() error {
	fields := map[string]string{}
	p.PartnerName = strings.Join(strings.Fields(p.PartnerName), " ")
	if utf8.RuneCountInString(p.PartnerName) < 3 {
		fields["partnerName"] = "El nombre del socio debe tener al menos 3 caracteres"
	}
	p.Domain = strings.TrimSpace(p.Domain)
	if utf8.RuneCountInString(p.Domain) < 3 {
		fields["domain"] = "El dominio es requerido"
	} else if origin, ok := NormalizeOrigin(p.Domain); ok {
		p.Domain = origin
	} else {
		fields["domain"] = "El dominio no es válido (ejemplo: https://www.casalista.mx)"
	}
	perms := []string{}
	seen := map[string]bool{}
	for _, perm := range p.Permissions {
		perm = strings.TrimSpace(perm)
		switch {
		case perm == "" || seen[perm]:
		case !permissionPattern.MatchString(perm):
			fields["permissions"] = "Permiso no válido: " + perm
		default:
			seen[perm] = true
			perms = append(perms, perm)
		}
	}
	if len(perms) == 0 {
		perms = []string{PermissionWidgetAuth}
	}
	p.Permissions = perms
	p.CreatedBy, p.Notes = strings.TrimSpace(p.CreatedBy), strings.TrimSpace(p.Notes)
	if len(fields) == 0 {
		return nil
	}
	for _, f := range []string{"partnerName", "domain", "permissions"} {
		if m, ok := fields[f]; ok {
			return &perfilseguro.Error{Code: perfilseguro.EINVALID, Message: m, Fields: fields}
		}
	}
	return nil
}

// NormalizeOrigin turns "CasaLista.mx", "https://casalista.mx/path" or "http://localhost:3000"
// into the browser's Origin form: scheme://host[:port], lower-case, no path. Without a scheme
// https is assumed. Only http and https are accepted.
func NormalizeOrigin(domain string) (string, bool) {
	d := strings.TrimSpace(domain)
	if !strings.Contains(d, "://") {
		d = "https://" + d
	}
	u, err := url.Parse(d)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.User != nil {
		return "", false
	}
	if strings.ContainsAny(u.Host, " \t") {
		return "", false
	}
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if (u.Scheme == "https" && port == "443") || (u.Scheme == "http" && port == "80") {
		port = ""
	}
	if strings.Contains(host, ":") { // IPv6 literal
		host = "[" + host + "]"
	}
	origin := strings.ToLower(u.Scheme) + "://" + host
	if port != "" {
		origin += ":" + port
	}
	return origin, true
}

// ErrPartnerNotFound is returned when no partner matches.
var ErrPartnerNotFound = perfilseguro.Errorf(perfilseguro.ENOTFOUND, "No encontramos el socio solicitado.")

// CreatedPartner is a new partner with its first keys, shown once.
type CreatedPartner struct {
	Partner
	Keys FirstKeys `json:"keys"`
}

// CreatePartner stores a normalized partner and its first keys in one transaction: both
// publishable keys and a first secret key of each mode. The live publishable key is also the
// partner's key id (what the admin panel and `partner list` show).
func (s *Store) CreatePartner(ctx context.Context, p NewPartner) (CreatedPartner, error) {
	var out CreatedPartner
	err := s.InTx(ctx, func(tx *sqlx.Tx) error {
		if err := claimOrigin(ctx, tx, 0, p.Domain, p.Ours); err != nil {
			return err
		}
		const q = `INSERT INTO api_keys (key_id, partner_name, domain, permissions, created_by, notes)
			VALUES ('pending:' || gen_random_uuid(), $1, $2, $3, NULLIF($4, ''), NULLIF($5, '')) RETURNING id`
		var id int64
		if err := tx.GetContext(ctx, &id, q, p.PartnerName, p.Domain, pq.StringArray(p.Permissions), p.CreatedBy, p.Notes); err != nil {
			return fmt.Errorf("insert partner: %w", err)
		}
		keys, err := s.insertFirstKeys(ctx, tx, id, p.CreatedBy)
		if err != nil {
			return err
		}
		var r partnerRow
		if err := tx.GetContext(ctx, &r, `UPDATE api_keys SET key_id = $2 WHERE id = $1 RETURNING `+partnerColumns, id, keys.PublishableLive); err != nil {
			return fmt.Errorf("partner key id: %w", err)
		}
		out = CreatedPartner{Partner: r.partner(), Keys: keys}
		return nil
	})
	return out, err
}

// InsertPartner is CreatePartner for callers that show no secret key.
func (s *Store) InsertPartner(ctx context.Context, p NewPartner) (Partner, error) {
	c, err := s.CreatePartner(ctx, p)
	return c.Partner, err
}

// Partners lists every partner, newest first.
func (s *Store) Partners(ctx context.Context) ([]Partner, error) {
	var rows []partnerRow
	if err := s.q(ctx).SelectContext(ctx, &rows, selectPartner+`ORDER BY created_at DESC, id DESC`); err != nil {
		return nil, fmt.Errorf("list partners: %w", err)
	}
	out := make([]Partner, len(rows))
	for i, r := range rows {
		out[i] = r.partner()
	}
	return out, nil
}

// PartnerByRef finds a partner by numeric id or key id.
func (s *Store) PartnerByRef(ctx context.Context, ref string) (Partner, error) {
	var r partnerRow
	err := getOne(ctx, s.q(ctx), &r, ErrPartnerNotFound, "find partner",
		selectPartner+`WHERE key_id = $1 OR id::text = $1`, strings.TrimSpace(ref))
	if err != nil {
		return Partner{}, err
	}
	return r.partner(), nil
}

// DeactivatePartner turns a partner off and returns it: its keys, its console, its open hosted
// flows and its webhook deliveries stop (each checks api_keys.is_active), until ActivatePartner.
func (s *Store) DeactivatePartner(ctx context.Context, id int64) (Partner, error) {
	var r partnerRow
	err := getOne(ctx, s.q(ctx), &r, ErrPartnerNotFound, fmt.Sprintf("deactivate partner %d", id),
		`UPDATE api_keys SET is_active = false WHERE id = $1 RETURNING `+partnerColumns, id)
	if err != nil {
		return Partner{}, err
	}
	return r.partner(), nil
}

// ActivatePartner turns a deactivated partner back on (its keys and console work again) and
// returns it; ErrOriginTaken when another active partner registered its origin meanwhile.
func (s *Store) ActivatePartner(ctx context.Context, id int64) (Partner, error) {
	var r partnerRow
	err := s.InTx(ctx, func(tx *sqlx.Tx) error {
		var domain string
		err := getOne(ctx, tx, &domain, ErrPartnerNotFound, fmt.Sprintf("partner %d", id),
			`SELECT domain FROM api_keys WHERE id = $1 FOR UPDATE`, id)
		if err != nil {
			return err
		}
		if err := originFree(ctx, tx, id, domain); err != nil {
			return err
		}
		return tx.GetContext(ctx, &r, `UPDATE api_keys SET is_active = true WHERE id = $1 RETURNING `+partnerColumns, id)
	})
	if err != nil {
		return Partner{}, err
	}
	return r.partner(), nil
}

// DeletePartner removes a partner (users who came through it keep their records).
func (s *Store) DeletePartner(ctx context.Context, id int64) error {
	res, err := s.q(ctx).ExecContext(ctx, `DELETE FROM api_keys WHERE id = $1`, id)
	if err != nil {
		return fmt.Errorf("delete partner %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrPartnerNotFound
	}
	return nil
}

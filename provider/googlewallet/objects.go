package googlewallet

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/jwt"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/provider/outbound"
)

// Google's endpoints and the scope an issuer's service account needs to change its objects.
const (
	// DefaultBaseURL is the Wallet REST API root.
	DefaultBaseURL = "https://walletobjects.googleapis.com"
	// DefaultTokenURL is Google's OAuth 2.0 token endpoint.
	DefaultTokenURL = "https://oauth2.googleapis.com/token"
	// WalletScope lets a token read and change the issuer's classes and objects.
	WalletScope = "https://www.googleapis.com/auth/wallet_object.issuer"
)

// UpdaterOptions points an Updater at Google (the defaults) or at a test server.
type UpdaterOptions struct {
	BaseURL    string       // Wallet REST API root; DefaultBaseURL when empty
	TokenURL   string       // OAuth 2.0 token endpoint; DefaultTokenURL when empty
	HTTPClient *http.Client // used for token and API calls; outbound.Client(15s) when nil
}

// Updater patches saved generic pass objects through the Wallet REST API; it is safe for concurrent use.
type Updater struct {
	render  *Signer // the save link's renderer, so a patched object equals a newly saved one
	baseURL string
	client  *http.Client
	tokens  oauth2.TokenSource // caches the access token until shortly before it expires
}

var _ perfilseguro.GooglePassUpdater = (*Updater)(nil)

// NewUpdater checks cfg and returns an Updater that authenticates as cfg's service account.
func NewUpdater(cfg Config, opts UpdaterOptions) (*Updater, error) {
	s := New(cfg)
	if err := s.checkConfig(); err != nil {
		return nil, err
	}
	opts.BaseURL, opts.HTTPClient = outbound.Endpoint("googlewallet", opts.BaseURL, DefaultBaseURL, opts.HTTPClient, 15*time.Second)
	if opts.TokenURL == "" {
		opts.TokenURL = DefaultTokenURL
	}
	der, err := x509.MarshalPKCS8PrivateKey(cfg.PrivateKey)
	if err != nil {
		return nil, fmt.Errorf("googlewallet: encode private key: %w", err)
	}
	jc := &jwt.Config{
		Email:      cfg.ServiceAccountEmail,
		PrivateKey: pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}),
		Scopes:     []string{WalletScope},
		TokenURL:   opts.TokenURL,
	}
	// The token source outlives any one call, so it gets a background context carrying our client.
	tokenCtx := context.WithValue(context.Background(), oauth2.HTTPClient, opts.HTTPClient)
	return &Updater{
		render:  s,
		baseURL: strings.TrimRight(opts.BaseURL, "/"),
		client:  opts.HTTPClient,
		tokens:  jc.TokenSource(tokenCtx),
	}, nil
}

// UpdatePass replaces the saved object for p with the one a new save would make. It returns an
// error wrapping ErrPassNotSaved for a 404 and one wrapping ErrPermanent for a refusal a retry cannot fix.
func (u *Updater) UpdatePass(ctx context.Context, p perfilseguro.PassData) error {
	if err := validate(p); err != nil {
		return err
	}
	obj := u.render.object(p)
	body, err := json.Marshal(obj)
	if err != nil {
		return fmt.Errorf("googlewallet: encode object %s: %w", obj.ID, err)
	}
	token, err := u.token()
	if err != nil {
		return err
	}
	endpoint := u.baseURL + "/walletobjects/v1/genericObject/" + url.PathEscape(obj.ID)
	req, err := http.NewRequestWithContext(ctx, http.MethodPatch, endpoint, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("googlewallet: update %s: %w", obj.ID, err)
	}
	req.Header.Set("Content-Type", "application/json")
	token.SetAuthHeader(req)
	res, err := u.client.Do(req)
	if err != nil {
		return fmt.Errorf("googlewallet: update %s: %w", obj.ID, err)
	}
	defer res.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(res.Body, 8<<10))
	status := res.StatusCode
	switch {
	case status >= 200 && status < 300:
		return nil
	case status == http.StatusNotFound:
		return fmt.Errorf("googlewallet: update %s: %w", obj.ID, perfilseguro.ErrPassNotSaved)
	case outbound.Transient(status):
		return fmt.Errorf("googlewallet: update %s: %d %s", obj.ID, status, googleMessage(answer))
	default:
		return fmt.Errorf("googlewallet: update %s: %d %s: %w", obj.ID, status, googleMessage(answer), perfilseguro.ErrPermanent)
	}
}

// token returns a cached or new access token; a token endpoint that rejects the key or the
// account (400, 401) is a permanent failure, anything else may pass on a retry.
func (u *Updater) token() (*oauth2.Token, error) {
	t, err := u.tokens.Token()
	if err == nil {
		return t, nil
	}
	var re *oauth2.RetrieveError
	if errors.As(err, &re) && re.Response != nil && (re.Response.StatusCode == http.StatusBadRequest || re.Response.StatusCode == http.StatusUnauthorized) {
		return nil, fmt.Errorf("googlewallet: access token: %d %s: %w",
			re.Response.StatusCode, truncate(string(re.Body)), perfilseguro.ErrPermanent)
	}
	return nil, fmt.Errorf("googlewallet: access token: %w", err)
}

// googleMessage extracts error.message from a Google API error body, or returns the raw body, truncated.
func googleMessage(body []byte) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error.Message != "" {
		return truncate(e.Error.Message)
	}
	return truncate(string(body))
}

// truncate keeps error texts short enough for a log line.
func truncate(s string) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > 200 {
		return string(r[:200]) + "…"
	}
	return s
}

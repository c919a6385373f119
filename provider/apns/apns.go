// Package apns tells devices that an Apple Wallet pass changed: one push per registered device
// through the Apple Push Notification service (HTTP/2, token-based authentication), with the
// pass type identifier as topic and an empty JSON payload, as Wallet expects.
package apns

import (
	"context"
	"crypto/ecdsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/provider/outbound"
)

// ProductionURL is Apple's APNs endpoint (api.sandbox.push.apple.com for development builds).
const ProductionURL = "https://api.push.apple.com"

// tokenLifetime: APNs refuses provider tokens older than an hour and too frequent new ones
// (TooManyProviderTokenUpdates under 20 minutes); one token serves 40 minutes.
const tokenLifetime = 40 * time.Minute

// Config is the APNs key and where to send.
type Config struct {
	BaseURL    string            // ProductionURL, or a stand-in in tests
	KeyID      string            // the APNs key's 10-character id (JWT header kid)
	TeamID     string            // the developer team (JWT iss)
	Topic      string            // the pass type identifier
	PrivateKey *ecdsa.PrivateKey // the .p8 key (P-256)
	HTTPClient *http.Client      // nil: an HTTP/2-capable client with a 10 s timeout
}

// Client sends pass-update pushes.
type Client struct {
	cfg Config

	mu      sync.Mutex
	token   string
	tokenAt time.Time
}

// ErrUnregistered means the device no longer wants pushes for this topic (APNs 410): forget it.
var ErrUnregistered = fmt.Errorf("apns: 410: %w", perfilseguro.ErrPushTokenGone)

// PermanentError is a refusal a retry cannot fix (a bad token or topic, a 4xx other than 429).
type PermanentError struct {
	Status int
	Reason string
}

func (e *PermanentError) Error() string { return fmt.Sprintf("apns: %d %s", e.Status, e.Reason) }

// Unwrap makes a PermanentError a perfilseguro.ErrPermanent.
func (e *PermanentError) Unwrap() error { return perfilseguro.ErrPermanent }

// New checks the configuration and builds a client.
func New(cfg Config) (*Client, error) {
	switch {
	case cfg.BaseURL == "":
		return nil, errors.New("apns: missing base URL")
	case cfg.KeyID == "" || cfg.TeamID == "":
		return nil, errors.New("apns: missing key id or team id")
	case cfg.Topic == "":
		return nil, errors.New("apns: missing topic (pass type identifier)")
	case cfg.PrivateKey == nil:
		return nil, errors.New("apns: missing private key")
	}
	// Go's transport speaks HTTP/2 over TLS, as APNs requires.
	cfg.BaseURL, cfg.HTTPClient = outbound.Endpoint("apns", cfg.BaseURL, "", cfg.HTTPClient, 10*time.Second)
	return &Client{cfg: cfg}, nil
}

// ParsePrivateKey reads an APNs .p8 key (PKCS#8 PEM).
func ParsePrivateKey(p8 []byte) (*ecdsa.PrivateKey, error) {
	block, _ := pem.Decode(p8)
	if block == nil {
		return nil, errors.New("apns: key is not PEM")
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("apns: key: %w", err)
	}
	ec, ok := k.(*ecdsa.PrivateKey)
	if !ok {
		return nil, errors.New("apns: key is not an EC key")
	}
	return ec, nil
}

// providerToken returns the current ES256 provider token, made anew when it is too old.
func (c *Client) providerToken(now time.Time) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.token != "" && now.Sub(c.tokenAt) < tokenLifetime {
		return c.token, nil
	}
	t := jwt.NewWithClaims(jwt.SigningMethodES256, jwt.MapClaims{"iss": c.cfg.TeamID, "iat": now.Unix()})
	t.Header["kid"] = c.cfg.KeyID
	signed, err := t.SignedString(c.cfg.PrivateKey)
	if err != nil {
		return "", fmt.Errorf("apns: sign provider token: %w", err)
	}
	c.token, c.tokenAt = signed, now
	return signed, nil
}

// PushPassUpdate tells one device that its pass changed. It returns ErrUnregistered for a 410,
// a *PermanentError for other refusals, and other errors for what a retry may fix.
func (c *Client) PushPassUpdate(ctx context.Context, pushToken string) error {
	token, err := c.providerToken(time.Now())
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.cfg.BaseURL+"/3/device/"+pushToken, strings.NewReader("{}"))
	if err != nil {
		return fmt.Errorf("apns: %w", err)
	}
	req.Header.Set("authorization", "bearer "+token)
	req.Header.Set("apns-topic", c.cfg.Topic)
	req.Header.Set("apns-push-type", "background") // no alert: Wallet fetches the pass
	req.Header.Set("apns-priority", "5")           // background pushes must not use 10
	req.Header.Set("content-type", "application/json")
	res, err := c.cfg.HTTPClient.Do(req)
	if err != nil {
		return fmt.Errorf("apns: %w", err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
	reason := strings.TrimSpace(string(body))
	switch {
	case res.StatusCode == http.StatusOK:
		return nil
	case res.StatusCode == http.StatusGone:
		return ErrUnregistered
	case res.StatusCode == http.StatusForbidden && strings.Contains(reason, "ExpiredProviderToken"):
		c.mu.Lock()
		c.token = "" // make a new one on the retry
		c.mu.Unlock()
		return fmt.Errorf("apns: provider token expired: %s", reason)
	case outbound.Transient(res.StatusCode):
		return fmt.Errorf("apns: %d %s", res.StatusCode, reason)
	default:
		return &PermanentError{Status: res.StatusCode, Reason: reason}
	}
}

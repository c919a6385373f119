// Package perfilseguro is the Go SDK for Perfil Seguro partners: it opens and reads verification
// sessions with the partner's secret key, checks the signature of webhook notifications and
// verifies the signed proof of what a person shared.
//
// Client, built by New, is the convenient way in; RawClient and ClientWithResponses, generated
// by oapi-codegen from openapi.json (client.gen.go), expose every partner operation as is.
//
//	ps, err := perfilseguro.New("https://perfilseguro.mx", os.Getenv("PERFILSEGURO_SECRET_KEY"))
//	created, err := ps.CreateSession(ctx, perfilseguro.NewSession{
//		Reference:     "pedido-123",
//		RequiredLevel: perfilseguro.LevelBiometric,
//		Claims:        []perfilseguro.NewSessionClaims{perfilseguro.ClaimName, perfilseguro.ClaimValidUntil},
//	})
//
// Errors that Perfil Seguro answers come back as *APIError, with the server's message in Spanish.
package perfilseguro

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Version is the SDK's version, sent in the User-Agent header.
const Version = "0.1.0"

// DefaultBaseURL is Perfil Seguro's production address; New uses it when baseURL is "".
const DefaultBaseURL = "https://perfilseguro.mx"

// DefaultTimeout bounds a whole request (connection, sending, waiting and reading the answer)
// unless WithTimeout or WithHTTP says otherwise.
const DefaultTimeout = 30 * time.Second

// The data a verification session can ask the person to share (NewSession.Claims) and the keys
// under which SessionView.Shared and SessionEvent.Claims carry them. The last six come from the
// official ID that certifies the profile; a profile validated before IDs were read, or an ID that
// lacks one, leaves it out and lists it in UnavailableClaims. The birth date and the CURP are
// shared only when asked for and agreed to by the person on the screen that names them.
const (
	ClaimName        = "name"        // full name (string)
	ClaimProfileID   = "profileId"   // the person's Perfil Seguro identifier (string)
	ClaimValidUntil  = "validUntil"  // until when the validation holds (RFC 3339, or null)
	ClaimLevel       = "level"       // the verification level reached (number)
	ClaimGivenName   = "givenName"   // given names as on the ID, in proper case (string)
	ClaimFamilyName  = "familyName"  // surnames as on the ID, in proper case (string)
	ClaimBirthdate   = "birthdate"   // date of birth on the ID, YYYY-MM-DD (string)
	ClaimAgeOver18   = "ageOver18"   // 18 or older on the day of sharing, without the birth date (bool)
	ClaimNationality = "nationality" // nationality on the ID, ISO 3166-1 alpha-3 (string)
	ClaimCURP        = "curp"        // the CURP on the ID (string)
)

// Verification levels a session can require (NewSession.RequiredLevel).
const (
	LevelEmail     = 2 // verified e-mail
	LevelBiometric = 3 // identity document and biometric check
)

// Prefixes of the secret keys: live keys act on real people, test keys open test sessions.
const (
	LiveKeyPrefix = "sk_live_"
	TestKeyPrefix = "sk_test_"
)

// maxBody bounds how much of an answer is read.
const maxBody = 4 << 20

// Client calls the partner API with a secret key. It is safe for concurrent use.
type Client struct {
	baseURL  string
	http     *http.Client
	raw      *ClientWithResponses
	livemode bool
}

// Option adjusts a Client built by New.
type Option func(*settings) error

type settings struct {
	http      *http.Client
	timeout   time.Duration
	userAgent string
}

// WithHTTP makes the client send its requests with c (say, one with a proxy or custom TLS).
// New copies c, so the one passed is not changed; its Timeout is kept unless WithTimeout is given.
func WithHTTP(c *http.Client) Option {
	return func(s *settings) error {
		if c == nil {
			return errors.New("perfilseguro: WithHTTP recibió un *http.Client nil")
		}
		s.http = c
		return nil
	}
}

// WithTimeout bounds each whole request (DefaultTimeout if not given).
func WithTimeout(d time.Duration) Option {
	return func(s *settings) error {
		if d <= 0 {
			return fmt.Errorf("perfilseguro: el tiempo límite debe ser positivo (%s)", d)
		}
		s.timeout = d
		return nil
	}
}

// WithUserAgent puts the partner's own product before the SDK's in the User-Agent header.
func WithUserAgent(product string) Option {
	return func(s *settings) error {
		s.userAgent = strings.TrimSpace(product)
		return nil
	}
}

// New returns a client of the partner API at baseURL ("" for DefaultBaseURL) that authenticates
// with secretKey (sk_live_… or sk_test_…). It does not call the server: a wrong but well-formed
// key shows up as a 401 *APIError on the first request.
func New(baseURL, secretKey string, opts ...Option) (*Client, error) {
	if err := checkSecretKey(secretKey); err != nil {
		return nil, err
	}
	live := strings.HasPrefix(secretKey, LiveKeyPrefix)
	base, err := checkBaseURL(baseURL, live)
	if err != nil {
		return nil, err
	}

	s := settings{}
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		if err := opt(&s); err != nil {
			return nil, err
		}
	}
	var hc *http.Client
	if s.http != nil {
		copied := *s.http
		hc = &copied
	} else {
		hc = defaultHTTPClient()
	}
	if s.timeout > 0 {
		hc.Timeout = s.timeout
	}
	ua := "perfilseguro-go/" + Version
	if s.userAgent != "" {
		ua = s.userAgent + " " + ua
	}

	auth := func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+secretKey)
		req.Header.Set("Accept", "application/json")
		req.Header.Set("User-Agent", ua)
		return nil
	}
	raw, err := NewClientWithResponses(base, WithHTTPClient(hc), WithRequestEditorFn(auth))
	if err != nil {
		return nil, fmt.Errorf("perfilseguro: %w", err)
	}
	return &Client{baseURL: base, http: hc, raw: raw, livemode: live}, nil
}

// defaultHTTPClient has a bound on the whole request and on the wait for the answer's headers.
func defaultHTTPClient() *http.Client {
	var rt http.RoundTripper = http.DefaultTransport
	if t, ok := http.DefaultTransport.(*http.Transport); ok {
		t = t.Clone()
		t.ResponseHeaderTimeout = 20 * time.Second
		t.TLSHandshakeTimeout = 10 * time.Second
		rt = t
	}
	return &http.Client{Transport: rt, Timeout: DefaultTimeout}
}

// checkSecretKey refuses anything but a secret key; the key itself never appears in the error.
func checkSecretKey(key string) error {
	switch {
	case key == "":
		return errors.New("perfilseguro: falta la llave secreta (sk_live_… o sk_test_…)")
	case strings.HasPrefix(key, "pk_live_"), strings.HasPrefix(key, "pk_test_"):
		return errors.New("perfilseguro: esa es una llave publicable (pk_…), que va en el navegador; aquí se usa la llave secreta (sk_live_… o sk_test_…)")
	case !strings.HasPrefix(key, LiveKeyPrefix) && !strings.HasPrefix(key, TestKeyPrefix):
		return errors.New("perfilseguro: la llave secreta debe empezar con sk_live_ o sk_test_")
	case key == LiveKeyPrefix || key == TestKeyPrefix:
		return errors.New("perfilseguro: la llave secreta está incompleta")
	case strings.ContainsFunc(key, func(r rune) bool { return r <= ' ' || r == 0x7f }):
		return errors.New("perfilseguro: la llave secreta contiene espacios o caracteres de control; cópiela de nuevo")
	}
	return nil
}

// checkBaseURL accepts an http(s) origin, optionally with a path prefix, and trims the final
// slash. A live key is only sent over https (or to this machine).
func checkBaseURL(raw string, live bool) (string, error) {
	if raw == "" {
		raw = DefaultBaseURL
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return "", fmt.Errorf("perfilseguro: la dirección base %q no es válida: use https://… (por ejemplo %s)", raw, DefaultBaseURL)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("perfilseguro: la dirección base %q no debe llevar usuario, consulta ni fragmento", raw)
	}
	if live && u.Scheme == "http" && !isLoopback(u.Hostname()) {
		return "", errors.New("perfilseguro: una llave sk_live_ solo se envía por https")
	}
	return strings.TrimRight(u.String(), "/"), nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// BaseURL is the address the client calls, without a final slash.
func (c *Client) BaseURL() string { return c.baseURL }

// Livemode tells whether the client holds a live key (sk_live_…) rather than a test key.
func (c *Client) Livemode() bool { return c.livemode }

// Raw is the generated client, already sending the secret key, for operations and details
// (response headers, typed error bodies) that the convenience methods do not expose.
func (c *Client) Raw() *ClientWithResponses { return c.raw }

// CreateSession opens a verification session. Hand SessionCreated.ClientSecret to your page (or
// send the person to SessionCreated.URL); the result arrives by webhook or with GetSession.
func (c *Client) CreateSession(ctx context.Context, s NewSession) (*SessionCreated, error) {
	if s.Claims == nil {
		s.Claims = []NewSessionClaims{} // the API wants a list, never null
	}
	res, err := c.raw.CreateVerificationSession(ctx, s)
	return decode[SessionCreated](res, err)
}

// GetSession reads a session: its status and, once completed, what was shared and its proof.
func (c *Client) GetSession(ctx context.Context, id string) (*SessionView, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	res, err := c.raw.GetVerificationSession(ctx, id)
	return decode[SessionView](res, err)
}

// CancelSession cancels a session that has not ended (a 409 *APIError if it already has).
func (c *Client) CancelSession(ctx context.Context, id string) (*SessionView, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	res, err := c.raw.CancelVerificationSession(ctx, id)
	return decode[SessionView](res, err)
}

// ListSessions reads one page of sessions, newest first. limit is 1 to 100 (0: the server's
// default, 20); startingAfter is the id of the last session of the previous page ("" for the
// first page). SessionList.HasMore tells whether another page follows.
func (c *Client) ListSessions(ctx context.Context, limit int, startingAfter string) (*SessionList, error) {
	if limit < 0 {
		return nil, fmt.Errorf("perfilseguro: limit no puede ser negativo (%d)", limit)
	}
	params := &ListVerificationSessionsParams{}
	if limit > 0 {
		params.Limit = &limit
	}
	if startingAfter != "" {
		params.StartingAfter = &startingAfter
	}
	res, err := c.raw.ListVerificationSessions(ctx, params)
	return decode[SessionList](res, err)
}

// GetWidgetStatus tells whether the person with this e-mail holds a valid validation, with what
// they agreed to share with the partner.
func (c *Client) GetWidgetStatus(ctx context.Context, email string) (*WidgetStatus, error) {
	if strings.TrimSpace(email) == "" {
		return nil, errors.New("perfilseguro: falta el correo")
	}
	res, err := c.raw.GetWidgetStatus(ctx, &GetWidgetStatusParams{Email: email})
	return decode[WidgetStatus](res, err)
}

// VerifyProof checks a session's proof (SessionView.Proof) against the keys this client's
// server publishes; see the package function VerifyProof.
func (c *Client) VerifyProof(ctx context.Context, proof string) (map[string]any, error) {
	return verifyProof(ctx, c.http, proof, c.baseURL)
}

// checkID refuses an empty id, which would otherwise turn GET …/{id} into the list.
func checkID(id string) error {
	if strings.TrimSpace(id) == "" {
		return errors.New("perfilseguro: falta el id de la sesión (vs_…)")
	}
	return nil
}

// APIError is an answer of Perfil Seguro outside 2xx.
type APIError struct {
	// Status is the HTTP status: 400 invalid data, 401 wrong or revoked key, 403 not allowed,
	// 404 not found, 409 session already ended, 429 too many sessions, 5xx the server's side.
	Status int
	// Message is the server's explanation, in Spanish.
	Message string
	// Errors names the fields at fault, when the server says (400).
	Errors map[string]string
	// RetryAfter is how long the server asked to wait (429, 503), zero if it did not say.
	RetryAfter time.Duration
}

// Error returns the server's message, in Spanish.
func (e *APIError) Error() string { return e.Message }

// newAPIError reads {message, errors} from an error answer; a body of another shape (say, a
// proxy's HTML page) still gives an error with the status.
func newAPIError(res *http.Response, body []byte) *APIError {
	e := &APIError{Status: res.StatusCode}
	var eb ErrorBody
	if json.Unmarshal(body, &eb) == nil {
		e.Message = strings.TrimSpace(eb.Message)
		for field, msg := range eb.Errors {
			if e.Errors == nil {
				e.Errors = map[string]string{}
			}
			if msg != nil {
				e.Errors[field] = *msg
			} else {
				e.Errors[field] = ""
			}
		}
	}
	if e.Message == "" {
		e.Message = fmt.Sprintf("Perfil Seguro respondió %d %s", res.StatusCode, http.StatusText(res.StatusCode))
	}
	if s, err := strconv.Atoi(strings.TrimSpace(res.Header.Get("Retry-After"))); err == nil && s > 0 {
		e.RetryAfter = time.Duration(s) * time.Second
	} else if t, err := http.ParseTime(res.Header.Get("Retry-After")); err == nil {
		if d := time.Until(t); d > 0 {
			e.RetryAfter = d
		}
	}
	return e
}

// decode reads a JSON answer into T, or an *APIError outside 2xx.
func decode[T any](res *http.Response, err error) (*T, error) {
	if err != nil {
		return nil, fmt.Errorf("perfilseguro: no se pudo completar la solicitud: %w", err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, maxBody+1))
	if err != nil {
		return nil, fmt.Errorf("perfilseguro: no se pudo leer la respuesta: %w", err)
	}
	if len(body) > maxBody {
		return nil, fmt.Errorf("perfilseguro: la respuesta excede %d bytes", maxBody)
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return nil, newAPIError(res, body)
	}
	var out T
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, fmt.Errorf("perfilseguro: respuesta no válida (HTTP %d): %w", res.StatusCode, err)
	}
	return &out, nil
}

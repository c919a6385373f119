package email_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net"
	netmail "net/mail"
	"strings"
	"sync"
	"testing"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/provider/email"
)

// received is what the test SMTP server accepted.
type received struct {
	mu       sync.Mutex
	from     string
	rcpts    []string
	data     []byte
	authUser string
	authPass string
}

type backend struct{ got *received }

func (b backend) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{got: b.got}, nil }

type session struct{ got *received }

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		s.got.mu.Lock()
		defer s.got.mu.Unlock()
		s.got.authUser, s.got.authPass = user, pass
		if pass != "correcta" {
			return errors.New("bad password")
		}
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	s.got.mu.Lock()
	defer s.got.mu.Unlock()
	s.got.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	switch {
	case strings.HasPrefix(to, "noexiste@"):
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such user"}
	case strings.HasPrefix(to, "lleno@"):
		return &smtp.SMTPError{Code: 452, EnhancedCode: smtp.EnhancedCode{4, 2, 2}, Message: "Mailbox full"}
	}
	s.got.mu.Lock()
	defer s.got.mu.Unlock()
	s.got.rcpts = append(s.got.rcpts, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.got.mu.Lock()
	defer s.got.mu.Unlock()
	s.got.data = b
	return nil
}

func (s *session) Reset()        {}
func (s *session) Logout() error { return nil }

// setup starts a real SMTP listener on 127.0.0.1:0 and returns its port.
func setup(t *testing.T) (int, *received) {
	t.Helper()
	got := &received{}
	srv := smtp.NewServer(backend{got: got})
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return ln.Addr().(*net.TCPAddr).Port, got
}

var testEmail = perfilseguro.Email{
	To:      "maria@example.com",
	Subject: "Confirma tu correo electrónico — Perfil Seguro",
	Text:    "Hola María, confirma tu correo aquí: https://perfilseguro.mx/verificar-email?token=abc",
	HTML:    `<p>Hola María, <a href="https://perfilseguro.mx/verificar-email?token=abc">confirma tu correo</a>.</p>`,
}

func TestSendEmailMultipart(t *testing.T) {
	t.Parallel()
	port, got := setup(t)
	c := email.New(email.Config{Host: "127.0.0.1", Port: port, From: "no-responder@perfilseguro.mx", TLS: email.TLSNone})
	require.NoError(t, c.SendEmail(context.Background(), testEmail))

	got.mu.Lock()
	defer got.mu.Unlock()
	require.Equal(t, "no-responder@perfilseguro.mx", got.from)
	require.Equal(t, []string{"maria@example.com"}, got.rcpts)

	msg, err := netmail.ReadMessage(bytes.NewReader(got.data))
	require.NoError(t, err)

	from, err := netmail.ParseAddress(msg.Header.Get("From"))
	require.NoError(t, err)
	require.Equal(t, "Perfil Seguro", from.Name)
	require.Equal(t, "no-responder@perfilseguro.mx", from.Address)

	to, err := msg.Header.AddressList("To")
	require.NoError(t, err)
	require.Len(t, to, 1)
	require.Equal(t, "maria@example.com", to[0].Address)

	subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	require.NoError(t, err)
	require.Equal(t, testEmail.Subject, subject, "accented characters must survive")
	require.NotEmpty(t, msg.Header.Get("Message-Id"))
	require.NotEmpty(t, msg.Header.Get("Date"))

	mediaType, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	require.NoError(t, err)
	require.Equal(t, "multipart/alternative", mediaType)

	parts := map[string]string{}
	var order []string
	mr := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		ct, ctParams, err := mime.ParseMediaType(p.Header.Get("Content-Type"))
		require.NoError(t, err)
		require.Equal(t, "utf-8", strings.ToLower(ctParams["charset"]))
		body, err := io.ReadAll(p) // multipart decodes quoted-printable transparently
		require.NoError(t, err)
		parts[ct] = strings.TrimSpace(string(body))
		order = append(order, ct)
	}
	require.Equal(t, []string{"text/plain", "text/html"}, order, "plain first, HTML last (preferred)")
	require.Equal(t, testEmail.Text, parts["text/plain"])
	require.Equal(t, testEmail.HTML, parts["text/html"])
}

func TestSendEmailAuthenticates(t *testing.T) {
	t.Parallel()
	port, got := setup(t)
	c := email.New(email.Config{Host: "127.0.0.1", Port: port, Username: "smtp-user", Password: "correcta",
		From: "no-responder@perfilseguro.mx", TLS: email.TLSNone})
	require.NoError(t, c.SendEmail(context.Background(), testEmail))
	got.mu.Lock()
	defer got.mu.Unlock()
	require.Equal(t, "smtp-user", got.authUser)
	require.Equal(t, []string{"maria@example.com"}, got.rcpts)
}

func TestSendEmailErrors(t *testing.T) {
	t.Parallel()
	port, _ := setup(t)
	cfg := email.Config{Host: "127.0.0.1", Port: port, From: "no-responder@perfilseguro.mx", TLS: email.TLSNone}

	cases := []struct {
		name      string
		cfg       email.Config
		to        string
		permanent bool
	}{
		{"rcpt 550 is permanent", cfg, "noexiste@example.com", true},
		{"rcpt 452 is transient", cfg, "lleno@example.com", false},
		{"invalid address is permanent", cfg, "no es un correo", true},
		{"wrong password is transient", func() email.Config {
			c := cfg
			c.Username, c.Password = "smtp-user", "incorrecta"
			return c
		}(), "maria@example.com", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			msg := testEmail
			msg.To = tc.to
			err := email.New(tc.cfg).SendEmail(context.Background(), msg)
			require.Error(t, err)
			require.Equal(t, tc.permanent, errors.Is(err, perfilseguro.ErrPermanent), err.Error())
		})
	}
}

func TestConnectionFailureIsTransient(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	require.NoError(t, ln.Close()) // nothing listens any more

	c := email.New(email.Config{Host: "127.0.0.1", Port: port, From: "no-responder@perfilseguro.mx", TLS: email.TLSNone})
	err = c.SendEmail(context.Background(), testEmail)
	require.Error(t, err)
	require.False(t, errors.Is(err, perfilseguro.ErrPermanent))
}

func TestStartTLSRequiredByDefault(t *testing.T) {
	t.Parallel()
	port, got := setup(t) // the test server offers no STARTTLS
	c := email.New(email.Config{Host: "127.0.0.1", Port: port, From: "no-responder@perfilseguro.mx"})
	err := c.SendEmail(context.Background(), testEmail)
	require.Error(t, err, "the default mode must refuse to send in clear text")
	require.False(t, errors.Is(err, perfilseguro.ErrPermanent))
	got.mu.Lock()
	defer got.mu.Unlock()
	require.Empty(t, got.data)
}

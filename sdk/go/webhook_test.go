package perfilseguro

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"
)

// serverVector was made by the server's own perfilseguro.SignPartnerWebhook("whsec_nuevo",
// time.Unix(1767225600, 0), serverBody, "whsec_viejo"): a notification during a secret rotation.
const (
	serverBody   = `{"event":"verification_session.completed","id":"vs_0123456789abcdef01234567","reference":"pedido-123","status":"completed"}`
	serverHeader = "t=1767225600,v1=99fb52c1227426ae826efa1985dc9eca21c84c48378d1c6ed3dd3380c9ca7304,v1=bc47a460a03b9638054a0488880407403cb73804589716132d35882628216e68"
)

var serverTime = time.Unix(1767225600, 0)

func TestVerifyWebhookAcceptsWhatTheServerSigns(t *testing.T) {
	for _, secret := range []string{"whsec_nuevo", "whsec_viejo"} {
		if err := VerifyWebhook(secret, serverHeader, []byte(serverBody), serverTime.Add(time.Minute), 0); err != nil {
			t.Errorf("secret %s: %v", secret, err)
		}
	}
	if err := VerifyWebhook("whsec_otro", serverHeader, []byte(serverBody), serverTime, 0); !errors.Is(err, ErrSignatureMismatch) {
		t.Errorf("a third secret: %v", err)
	}
}

func TestSignWebhookMatchesTheServer(t *testing.T) {
	got := SignWebhook("whsec_nuevo", serverTime, []byte(serverBody))
	want, _, _ := strings.Cut(serverHeader, ",v1=bc47") // the server's first entry: the current secret
	if got != want {
		t.Errorf("SignWebhook = %q, want %q", got, want)
	}
}

func TestVerifyWebhook(t *testing.T) {
	const secret = "whsec_prueba"
	body := []byte(`{"event":"verification_session.declined","id":"vs_1"}`)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	header := SignWebhook(secret, now, body)
	sigOf := func(h string) string { _, s, _ := strings.Cut(h, ",v1="); return s }

	for _, tc := range []struct {
		name      string
		secret    string
		header    string
		body      []byte
		now       time.Time
		tolerance time.Duration
		want      error // nil: accepted
	}{
		{name: "ok", secret: secret, header: header, body: body, now: now},
		{name: "ok with spaces", secret: secret, header: strings.ReplaceAll(header, ",", ", "), body: body, now: now},
		{name: "ok, upper-case hex", secret: secret, header: "t=" + ts(now) + ",v1=" + strings.ToUpper(sigOf(header)), body: body, now: now},
		{name: "tampered body", secret: secret, header: header, body: []byte(`{"event":"verification_session.completed","id":"vs_1"}`), now: now, want: ErrSignatureMismatch},
		{name: "re-encoded body", secret: secret, header: header, body: append(append([]byte{}, body...), '\n'), now: now, want: ErrSignatureMismatch},
		{name: "wrong secret", secret: "whsec_otro", header: header, body: body, now: now, want: ErrSignatureMismatch},
		{name: "timestamp changed", secret: secret, header: "t=" + ts(now.Add(time.Second)) + ",v1=" + sigOf(header), body: body, now: now, want: ErrSignatureMismatch},
		{name: "stale", secret: secret, header: header, body: body, now: now.Add(5*time.Minute + time.Second), want: ErrSignatureExpired},
		{name: "from the future", secret: secret, header: header, body: body, now: now.Add(-5*time.Minute - time.Second), want: ErrSignatureExpired},
		{name: "at the edge of the default tolerance", secret: secret, header: header, body: body, now: now.Add(5 * time.Minute)},
		{name: "custom tolerance", secret: secret, header: header, body: body, now: now.Add(2 * time.Minute), tolerance: time.Minute, want: ErrSignatureExpired},
		{name: "several v1, the good one last", secret: secret,
			header: "t=" + ts(now) + ",v1=" + strings.Repeat("ab", 32) + ",v1=" + sigOf(header), body: body, now: now},
		{name: "several v1, none good", secret: secret,
			header: "t=" + ts(now) + ",v1=" + strings.Repeat("ab", 32) + ",v1=" + strings.Repeat("cd", 32), body: body, now: now, want: ErrSignatureMismatch},
		{name: "other schemes are ignored", secret: secret, header: "t=" + ts(now) + ",v0=zz,v2=" + strings.Repeat("0", 64) + ",v1=" + sigOf(header), body: body, now: now},
		{name: "empty header", secret: secret, header: "", body: body, now: now, want: ErrSignatureMalformed},
		{name: "no t", secret: secret, header: "v1=" + sigOf(header), body: body, now: now, want: ErrSignatureMalformed},
		{name: "no v1", secret: secret, header: "t=" + ts(now), body: body, now: now, want: ErrSignatureMalformed},
		{name: "t not a number", secret: secret, header: "t=ayer,v1=" + sigOf(header), body: body, now: now, want: ErrSignatureMalformed},
		{name: "negative t", secret: secret, header: "t=-5,v1=" + sigOf(header), body: body, now: now, want: ErrSignatureMalformed},
		{name: "two t", secret: secret, header: "t=" + ts(now) + ",t=" + ts(now) + ",v1=" + sigOf(header), body: body, now: now, want: ErrSignatureMalformed},
		{name: "v1 not hex", secret: secret, header: "t=" + ts(now) + ",v1=" + strings.Repeat("zz", 32), body: body, now: now, want: ErrSignatureMalformed},
		{name: "v1 too short", secret: secret, header: "t=" + ts(now) + ",v1=" + sigOf(header)[:63], body: body, now: now, want: ErrSignatureMalformed},
		{name: "garbage", secret: secret, header: "Bearer xyz", body: body, now: now, want: ErrSignatureMalformed},
	} {
		err := VerifyWebhook(tc.secret, tc.header, tc.body, tc.now, tc.tolerance)
		if tc.want == nil && err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
		if tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.want)
		}
	}
	if err := VerifyWebhook("", header, body, now, 0); err == nil || errors.Is(err, ErrSignatureMismatch) {
		t.Errorf("an empty secret: %v", err)
	}
}

func ts(t time.Time) string { return strconv.FormatInt(t.Unix(), 10) }

func TestConstructEvent(t *testing.T) {
	const secret = "whsec_prueba"
	body := []byte(`{"event":"verification_session.completed","id":"vs_9","reference":"pedido-9","status":"completed",` +
		`"livemode":true,"requiredLevel":3,"createdAt":"2026-03-01T12:00:00Z","endedAt":"2026-03-01T12:04:00Z",` +
		`"claims":{"name":"Ana López","level":3},"proof":"a.b.c"}`)
	ev, err := ConstructEvent(secret, SignWebhook(secret, time.Now(), body), body)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Event != "verification_session.completed" || ev.ID != "vs_9" || string(ev.Raw) != string(body) {
		t.Errorf("event = %+v", ev)
	}
	s, err := ev.Session()
	if err != nil {
		t.Fatal(err)
	}
	if s.Status != SessionViewStatusCompleted || s.Reference != "pedido-9" || !s.Livemode || s.RequiredLevel != 3 ||
		s.Claims["name"] != "Ana López" || s.Proof != "a.b.c" || s.EndedAt == nil {
		t.Errorf("session event = %+v", s)
	}

	// A stale notification is refused with the current clock.
	if _, err := ConstructEvent(secret, SignWebhook(secret, time.Now().Add(-time.Hour), body), body); !errors.Is(err, ErrSignatureExpired) {
		t.Errorf("stale: %v", err)
	}
	if _, err := ConstructEvent("whsec_otro", SignWebhook(secret, time.Now(), body), body); !errors.Is(err, ErrSignatureMismatch) {
		t.Errorf("wrong secret: %v", err)
	}
	// Well signed but not an event.
	for _, bad := range []string{`no es json`, `{"id":"vs_1"}`} {
		if _, err := ConstructEvent(secret, SignWebhook(secret, time.Now(), []byte(bad)), []byte(bad)); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
	// profile.* events have no session shape.
	other := []byte(`{"event":"profile.revoked","profileId":"PS-1","changedAt":"2026-03-01T12:00:00Z"}`)
	ev, err = ConstructEvent(secret, SignWebhook(secret, time.Now(), other), other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ev.Session(); err == nil {
		t.Error("profile.revoked read as a session")
	}
	var p struct {
		ProfileID string `json:"profileId"`
	}
	if err := ev.Decode(&p); err != nil || p.ProfileID != "PS-1" {
		t.Errorf("Decode: %v, %+v", err, p)
	}
}

// A completion carries the claims of the ID like the read (issue 52 item 6): those the profile
// cannot give are named in unavailableClaims.
func TestASessionEventCarriesTheClaimsOfTheID(t *testing.T) {
	const secret = "whsec_prueba"
	body := []byte(`{"event":"verification_session.completed","id":"vs_8","reference":"pedido-8","status":"completed",` +
		`"livemode":true,"requiredLevel":3,"createdAt":"2026-03-01T12:00:00Z","endedAt":"2026-03-01T12:04:00Z",` +
		`"claims":{"givenName":"Ana María","birthdate":"1990-05-17","ageOver18":true},"unavailableClaims":["curp"],"proof":"a.b.c"}`)
	ev, err := ConstructEvent(secret, SignWebhook(secret, time.Now(), body), body)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ev.Session()
	if err != nil {
		t.Fatal(err)
	}
	if s.Claims[ClaimGivenName] != "Ana María" || s.Claims[ClaimBirthdate] != "1990-05-17" || s.Claims[ClaimAgeOver18] != true {
		t.Errorf("claims = %v", s.Claims)
	}
	if _, ok := s.Claims[ClaimCURP]; ok || len(s.UnavailableClaims) != 1 || s.UnavailableClaims[0] != ClaimCURP {
		t.Errorf("curp: claims %v, unavailable %v", s.Claims, s.UnavailableClaims)
	}
}

// After a withdrawal, a resent completion carries the status only, and profile.access_revoked
// names the partner's own sessions (issue 54, items 1 and 3).
func TestTheEventsOfAWithdrawal(t *testing.T) {
	const secret = "whsec_prueba"
	body := []byte(`{"event":"verification_session.completed","id":"vs_9","reference":"pedido-9","status":"completed",` +
		`"livemode":true,"requiredLevel":2,"createdAt":"2026-03-01T12:00:00Z","shared":null,"sharedReason":"withdrawn"}`)
	ev, err := ConstructEvent(secret, SignWebhook(secret, time.Now(), body), body)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ev.Session()
	if err != nil {
		t.Fatal(err)
	}
	if s.SharedReason != SharedWithdrawn || s.Claims != nil || s.Proof != "" || s.Reference != "pedido-9" {
		t.Errorf("session event = %+v", s)
	}
	revoked := []byte(`{"event":"profile.access_revoked","livemode":false,"revokedAt":"2026-03-02T08:00:00Z",` +
		`"sessions":[{"id":"vs_9","reference":"pedido-9"},{"id":"vs_8","reference":"pedido-8"}]}`)
	ev, err = ConstructEvent(secret, SignWebhook(secret, time.Now(), revoked), revoked)
	if err != nil {
		t.Fatal(err)
	}
	a, err := ev.AccessRevoked()
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Sessions) != 2 || a.Sessions[0] != (SessionRef{ID: "vs_9", Reference: "pedido-9"}) || a.Livemode || a.ProfileID != "" ||
		a.RevokedAt.IsZero() {
		t.Errorf("access revoked = %+v", a)
	}
	if _, err := ev.Session(); err == nil {
		t.Error("profile.access_revoked read as a session")
	}
	deleted := []byte(`{"event":"profile.deleted","livemode":true,"deletedAt":"2026-03-03T08:00:00Z",` +
		`"sessions":[{"id":"vs_7","reference":"pedido-7"}],"profileId":"PS-0000-0000-07"}`)
	ev, err = ConstructEvent(secret, SignWebhook(secret, time.Now(), deleted), deleted)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ev.AccessRevoked(); err == nil {
		t.Error("profile.deleted read as profile.access_revoked")
	}
	d, err := ev.ProfileDeleted()
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Sessions) != 1 || d.Sessions[0] != (SessionRef{ID: "vs_7", Reference: "pedido-7"}) || !d.Livemode ||
		d.ProfileID != "PS-0000-0000-07" || d.DeletedAt.IsZero() {
		t.Errorf("profile deleted = %+v", d)
	}
}

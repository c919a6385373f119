package credential

import (
	"errors"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"
)

func TestSignStatusList(t *testing.T) {
	t.Parallel()
	f := setup(t)
	uri := issuerURL + "/status/1"
	list := NewStatusList(1024)
	require.NoError(t, list.Set(42, true))

	signed, err := f.issuer.SignStatusList(uri, list, 24*time.Hour, time.Hour)
	require.NoError(t, err)

	claims := jwt.MapClaims{}
	token, err := jwt.ParseWithClaims(signed, claims, func(token *jwt.Token) (any, error) {
		if token.Header["kid"] != f.key.ID {
			return nil, errors.New("unexpected kid")
		}
		return &f.key.Private.PublicKey, nil
	}, jwt.WithValidMethods([]string{"ES256"}), jwt.WithTimeFunc(func() time.Time { return f.now }))
	require.NoError(t, err)
	require.Equal(t, "statuslist+jwt", token.Header["typ"])
	require.Equal(t, f.key.ID, token.Header["kid"])

	require.Equal(t, uri, claims["sub"])
	require.Equal(t, float64(f.now.Unix()), claims["iat"])
	require.Equal(t, float64(f.now.Add(24*time.Hour).Unix()), claims["exp"])
	require.Equal(t, float64(3600), claims["ttl"])
	statusList, ok := claims["status_list"].(map[string]any)
	require.True(t, ok)
	require.Equal(t, float64(1), statusList["bits"])
	decoded, err := DecodeStatusList(statusList["lst"].(string), 1)
	require.NoError(t, err)
	revoked, err := decoded.Get(42)
	require.NoError(t, err)
	require.True(t, revoked)
	valid, err := decoded.Get(41)
	require.NoError(t, err)
	require.False(t, valid)

	other := newTestKey(t)
	_, err = jwt.Parse(signed, func(*jwt.Token) (any, error) { return &other.Private.PublicKey, nil },
		jwt.WithValidMethods([]string{"ES256"}), jwt.WithTimeFunc(func() time.Time { return f.now }))
	require.ErrorIs(t, err, jwt.ErrTokenSignatureInvalid)
}

func TestSignStatusListRefusesBadInput(t *testing.T) {
	t.Parallel()
	f := setup(t)
	uri := issuerURL + "/status/1"
	list := NewStatusList(8)
	for label, call := range map[string]func() (string, error){
		"no uri":      func() (string, error) { return f.issuer.SignStatusList("", list, time.Hour, time.Minute) },
		"no list":     func() (string, error) { return f.issuer.SignStatusList(uri, nil, time.Hour, time.Minute) },
		"no validity": func() (string, error) { return f.issuer.SignStatusList(uri, list, 0, time.Minute) },
		"no ttl":      func() (string, error) { return f.issuer.SignStatusList(uri, list, time.Hour, 0) },
		"no key": func() (string, error) {
			return (&Issuer{URL: issuerURL}).SignStatusList(uri, list, time.Hour, time.Minute)
		},
	} {
		_, err := call()
		require.Error(t, err, label)
	}
}

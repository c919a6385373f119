package credential

import (
	"errors"
	"fmt"
	"time"
)

// SignStatusList returns the Status List Token (JWT typ statuslist+jwt) for the list published at
// uri: sub is the uri (equal to status.status_list.uri in the credentials), exp is iat+validFor,
// and ttl tells relying parties how many seconds they may cache it.
func (i *Issuer) SignStatusList(uri string, l *StatusList, validFor, ttl time.Duration) (string, error) {
	key, err := i.signingKey()
	if err != nil {
		return "", fmt.Errorf("sign status list %s: %w", uri, err)
	}
	switch {
	case uri == "":
		return "", errors.New("sign status list: no uri")
	case l == nil:
		return "", fmt.Errorf("sign status list %s: no list", uri)
	case validFor < time.Second:
		return "", fmt.Errorf("sign status list %s: validity %s is under a second", uri, validFor)
	case ttl < time.Second:
		return "", fmt.Errorf("sign status list %s: ttl %s is under a second (the draft wants a positive number of seconds)", uri, ttl)
	}
	lst, err := l.Encode()
	if err != nil {
		return "", fmt.Errorf("sign status list %s: %w", uri, err)
	}
	iat := i.now().Unix()
	payload := map[string]any{
		"iss":         i.URL,
		"sub":         uri,
		"iat":         iat,
		"exp":         iat + int64(validFor/time.Second),
		"ttl":         int64(ttl / time.Second),
		"status_list": map[string]any{"bits": 1, "lst": lst},
	}
	signed, err := signJWT(key, typStatusList, payload)
	if err != nil {
		return "", fmt.Errorf("sign status list %s: %w", uri, err)
	}
	return signed, nil
}

package passkey

import (
	"errors"
	"strings"

	"github.com/go-webauthn/webauthn/protocol"

	perfilseguro "github.com/perfilseguro/perfilseguro"
)

// The refusals of a ceremony, in the product's voice. Each is a 4xx; none reveals more than the
// person can act on.
var (
	// ErrMalformed: the browser's answer is not WebAuthn JSON, or its CBOR or binary parts are broken.
	ErrMalformed = perfilseguro.FieldError("credential", "La respuesta de tu llave de acceso no tiene un formato válido. Intenta de nuevo.")
	// ErrNoChallenge: no ceremony of this browser matches (cookie missing, another browser's challenge).
	ErrNoChallenge = perfilseguro.Errorf(perfilseguro.EINVALID, "Esta solicitud no empezó en este navegador. Vuelve a intentarlo desde el principio.")
	// ErrChallengeUsed: the challenge was already answered once.
	ErrChallengeUsed = perfilseguro.Errorf(perfilseguro.EGONE, "Esta solicitud de llave de acceso ya se usó. Vuelve a intentarlo.")
	// ErrChallengeExpired: more than 5 minutes passed since the options were given.
	ErrChallengeExpired = perfilseguro.Errorf(perfilseguro.EGONE, "Pasaron más de 5 minutos y la solicitud venció. Vuelve a intentarlo.")
	// ErrWrongOrigin: the passkey was used on a site other than PUBLIC_BASE_URL.
	ErrWrongOrigin = perfilseguro.Errorf(perfilseguro.EINVALID, "La llave de acceso se usó desde un sitio que no es Perfil Seguro.")
	// ErrWrongRelyingParty: the authenticator signed for another relying party (RP ID).
	ErrWrongRelyingParty = perfilseguro.Errorf(perfilseguro.EINVALID, "Esta llave de acceso es de otro sitio, no de Perfil Seguro.")
	// ErrUnknownCredential: no passkey of this kind of account has that id (deleted, or never here).
	ErrUnknownCredential = perfilseguro.Errorf(perfilseguro.EUNAUTHORIZED, "No reconocemos esta llave de acceso. Entra con tu código y crea una nueva.")
	// ErrOtherAccount: the passkey belongs to a different account than the one that asked.
	ErrOtherAccount = perfilseguro.Errorf(perfilseguro.EFORBIDDEN, "Esta llave de acceso es de otra cuenta. Usa una llave tuya.")
	// ErrCloned: the sign count went backwards; the credential is blocked for good.
	ErrCloned = perfilseguro.Errorf(perfilseguro.EFORBIDDEN, "Bloqueamos esta llave de acceso porque parece copiada. Entra con tu código y elimínala.")
	// ErrNotVerified: the signature, user verification or another check failed.
	ErrNotVerified = perfilseguro.Errorf(perfilseguro.EUNAUTHORIZED, "No pudimos verificar tu llave de acceso. Intenta de nuevo.")
	// ErrAlreadyRegistered: this passkey is already saved (here or on another account).
	ErrAlreadyRegistered = perfilseguro.Errorf(perfilseguro.ECONFLICT, "Esta llave de acceso ya está registrada.")
	// ErrNoPasskeys: a re-authentication was asked by an owner without passkeys.
	ErrNoPasskeys = perfilseguro.Errorf(perfilseguro.ECONFLICT, "Aún no tienes llaves de acceso. Crea una en Mi Perfil o usa un código.")
	// ErrNotFound: no passkey with that id among the owner's.
	ErrNotFound = perfilseguro.Errorf(perfilseguro.ENOTFOUND, "No encontramos esa llave de acceso.")
	// ErrBadName: a name outside 1 to 60 characters.
	ErrBadName = perfilseguro.FieldError("name", "El nombre de la llave debe tener entre 1 y 60 caracteres.")
)

// classify turns a go-webauthn refusal into one of the errors above. go-webauthn reports the
// failing step in the error's Details (and the RP ID hash check in DevInfo); anything it reports
// is the browser's or the authenticator's doing, so the fallback is ErrNotVerified, not a 500.
func classify(err error) error {
	if err == nil {
		return nil
	}
	var de *perfilseguro.Error
	if errors.As(err, &de) {
		return err
	}
	var unknown *protocol.ErrorUnknownCredential
	if errors.As(err, &unknown) {
		return ErrOtherAccount
	}
	var pe *protocol.Error
	if !errors.As(err, &pe) {
		return ErrNotVerified
	}
	details, info := strings.ToLower(pe.Details), strings.ToLower(pe.DevInfo)
	switch {
	case pe.Type == protocol.ErrParsingData.Type, strings.Contains(details, "parse error"),
		strings.Contains(details, "unmarshal"), strings.Contains(details, "decod"):
		return ErrMalformed
	case strings.Contains(details, "origin"):
		return ErrWrongOrigin
	case strings.Contains(info, "rp hash mismatch"):
		return ErrWrongRelyingParty
	case strings.Contains(details, "user handle"), strings.Contains(details, "not owned by the user"),
		strings.Contains(details, "id mismatch for user"):
		return ErrOtherAccount
	case strings.Contains(details, "challenge"):
		return ErrNoChallenge
	}
	return ErrNotVerified
}

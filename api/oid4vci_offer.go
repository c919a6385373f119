package api

import (
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/go-fuego/fuego"
	"github.com/jmoiron/sqlx"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/credential"
	"github.com/perfilseguro/perfilseguro/postgres"
	"github.com/perfilseguro/perfilseguro/qrimage"
	"github.com/perfilseguro/perfilseguro/secure"
)

// offersPerHour bounds the offers one person creates (each sends a WhatsApp message).
const offersPerHour = 10

// offerQRSize is the side of the offer's QR code in pixels.
const offerQRSize = 320

var (
	errOfferNotFound  = perfilseguro.Errorf(perfilseguro.ENOTFOUND, "La oferta de credencial no existe, ya se usó o venció.")
	errOfferNoContact = perfilseguro.Errorf(perfilseguro.ECONFLICT,
		"Agrega un teléfono o un correo electrónico a tu cuenta para recibir el código de transacción.")
)

// CredentialOfferCreated is a new offer for the person's wallet.
type CredentialOfferCreated struct {
	// OfferURI opens the wallet (link on the phone, or the QR's content).
	OfferURI string `json:"offerUri"`
	// CredentialOfferURI is where the wallet reads the offer (OpenID4VCI credential_offer_uri).
	CredentialOfferURI string `json:"credentialOfferUri"`
	// QRURL is the QR code of OfferURI as a data: URL (PNG), ready for an <img>.
	QRURL     string    `json:"qrUrl"`
	ExpiresAt time.Time `json:"expiresAt"`
	// Channel is where the transaction code went.
	Channel string `json:"channel" enum:"email,phone"`
	Message string `json:"message"`
}

// CredentialOffer is the OpenID4VCI 1.0 Credential Offer (§4.1.1) behind credential_offer_uri.
type CredentialOffer struct {
	CredentialIssuer           string      `json:"credential_issuer"`
	CredentialConfigurationIDs []string    `json:"credential_configuration_ids"`
	Grants                     OfferGrants `json:"grants"`
}

// OfferGrants holds the one grant an offer allows.
type OfferGrants struct {
	PreAuthorizedCode PreAuthorizedGrant `json:"urn:ietf:params:oauth:grant-type:pre-authorized_code"`
}

// PreAuthorizedGrant is the pre-authorized code and what the wallet asks the person for with it.
type PreAuthorizedGrant struct {
	PreAuthorizedCode string     `json:"pre-authorized_code"`
	TxCode            TxCodeSpec `json:"tx_code"`
}

// TxCodeSpec describes the transaction code to the wallet's input screen.
type TxCodeSpec struct {
	InputMode   string `json:"input_mode" enum:"numeric"`
	Length      int    `json:"length"`
	Description string `json:"description"`
}

// createCredentialOffer makes a single-use offer valid 10 minutes and sends its transaction code
// as a one-time code (same job, limits, cooldown and five tries as the others).
func (v *oid4vci) createCredentialOffer(c fuego.ContextNoBody) (CredentialOfferCreated, error) {
	r := c.Request()
	ctx := r.Context()
	id, err := v.ownerOf(c, "credential-offer", offersPerHour)
	if err != nil {
		return CredentialOfferCreated{}, err
	}
	u, _, err := v.eligibleUser(ctx, id)
	if err != nil {
		return CredentialOfferCreated{}, err
	}
	sc := storedCode{Channel: postgres.ChannelPhone, Phone: deref(u.PhoneNumber)}
	destination := sc.Phone
	if sc.Phone == "" {
		sc.Channel, sc.Email, destination = postgres.ChannelEmail, deref(u.Email), deref(u.Email)
	}
	if destination == "" {
		return CredentialOfferCreated{}, errOfferNoContact
	}
	if err := v.checkSendLimits(ctx, r, sc.Phone, sc.Email); err != nil {
		return CredentialOfferCreated{}, err
	}
	last, err := v.store.LatestCodeAt(ctx, id, postgres.PurposeCredentialOffer)
	if err != nil {
		return CredentialOfferCreated{}, err
	}
	now := v.now()
	if err := checkCooldown(now, last); err != nil {
		return CredentialOfferCreated{}, err
	}
	handle := secure.NewToken(32)
	sc.Code, sc.ExpiresAt = secure.NewCode(), now.Add(codeLifetime)
	err = v.store.InTx(ctx, func(tx *sqlx.Tx) error {
		codeID, err := v.store.InsertCredentialOffer(ctx, tx, postgres.NewCredentialOffer{UserID: id, Channel: sc.Channel,
			Destination: destination, TxCodeHash: v.coder.Hash(destination, sc.Code), HandleHash: secure.HashToken(handle),
			CodeHash: secure.HashToken(v.preAuthorizedCode(handle)), ExpiresAt: sc.ExpiresAt, Now: now})
		if err != nil {
			return err
		}
		sc.ID = codeID
		return v.queueCode(ctx, true, sc) // a failed enqueue rolls the offer back
	})
	if err != nil {
		return CredentialOfferCreated{}, err
	}
	offerURI := v.issuer.URL + credentialOffersPath + handle
	link := "openid-credential-offer://?credential_offer_uri=" + url.QueryEscape(offerURI)
	png, err := qrimage.PNG(link, offerQRSize)
	if err != nil {
		return CredentialOfferCreated{}, err
	}
	setStatus(c, http.StatusCreated)
	return CredentialOfferCreated{OfferURI: link, CredentialOfferURI: offerURI,
		QRURL:     "data:image/png;base64," + base64.StdEncoding.EncodeToString(png),
		ExpiresAt: sc.ExpiresAt, Channel: sc.Channel,
		Message: sentMessage(sc.Phone) + " Escríbelo en tu billetera cuando te lo pida."}, nil
}

// getCredentialOffer answers the offer a wallet reads from credential_offer_uri, as long as it
// can be redeemed. It holds the pre-authorized code: never cached.
func (v *oid4vci) getCredentialOffer(c fuego.ContextNoBody) (CredentialOffer, error) {
	handle := c.PathParam("id")
	if len(handle) != 64 {
		return CredentialOffer{}, errOfferNotFound
	}
	channel, err := v.store.OpenOfferByHandle(c.Request().Context(), secure.HashToken(handle), v.now())
	if errors.Is(err, postgres.ErrOfferNotFound) {
		return CredentialOffer{}, errOfferNotFound
	}
	if err != nil {
		return CredentialOffer{}, err
	}
	c.SetHeader("Cache-Control", "no-store")
	description := "Código enviado por WhatsApp"
	if channel == postgres.ChannelEmail {
		description = "Código enviado a tu correo electrónico"
	}
	return CredentialOffer{CredentialIssuer: v.issuer.URL, CredentialConfigurationIDs: []string{credential.ConfigurationID},
		Grants: OfferGrants{PreAuthorizedCode: PreAuthorizedGrant{PreAuthorizedCode: v.preAuthorizedCode(handle),
			TxCode: TxCodeSpec{InputMode: "numeric", Length: 6, Description: description}}}}, nil
}

// preAuthorizedCode derives an offer's pre-authorized code from its handle with the server
// secret: the offer can be served again without storing the code, and the URL a wallet fetches
// (which proxies may log) is not itself the code.
func (v *oid4vci) preAuthorizedCode(handle string) string {
	return v.coder.Hash("oid4vci:pre-authorized_code", handle)
}

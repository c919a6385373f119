package api

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	perfilseguro "github.com/perfilseguro/perfilseguro"
	"github.com/perfilseguro/perfilseguro/identity"
)

// ageOver18 is computed on the day of sharing in Mexico City, from the document's birth date;
// the CURP only when the document carries a real one; nothing without a document.
func TestDocumentClaimsComeFromTheDocumentOnTheDayOfSharing(t *testing.T) {
	doc := identity.SampleDocument("ANA MARÍA RUIZ SOTO", time.Date(2008, 11, 28, 0, 0, 0, 0, time.UTC))
	// 28 Nov 2026 05:00 UTC is still 27 Nov in Mexico City: 17 years old.
	require.Equal(t, false, documentClaim(&doc, "ageOver18", time.Date(2026, 11, 28, 5, 0, 0, 0, time.UTC)))
	require.Equal(t, true, documentClaim(&doc, "ageOver18", time.Date(2026, 11, 28, 7, 0, 0, 0, time.UTC)))
	require.Equal(t, "2008-11-28", documentClaim(&doc, "birthdate", time.Now()))
	require.Equal(t, "Ana María", documentClaim(&doc, "givenName", time.Now()))
	require.Equal(t, "Ruiz Soto", documentClaim(&doc, "familyName", time.Now()))
	require.Equal(t, "MEX", documentClaim(&doc, "nationality", time.Now()))
	require.Equal(t, doc.PersonalNumber, documentClaim(&doc, "curp", time.Now()))

	passport := perfilseguro.DocumentIdentity{DocumentType: perfilseguro.DocumentPassport, IssuingCountry: "ESP",
		GivenNames: "JUAN", FirstSurname: "DE LA TORRE", PersonalNumber: "12345678Z", Nationality: "esp"}
	require.Nil(t, documentClaim(&passport, "curp", time.Now()), "a foreign personal number is no CURP")
	require.Nil(t, documentClaim(&passport, "birthdate", time.Now()))
	require.Nil(t, documentClaim(&passport, "ageOver18", time.Now()))
	require.Equal(t, "ESP", documentClaim(&passport, "nationality", time.Now()))
	require.Equal(t, "De la Torre", documentClaim(&passport, "familyName", time.Now()))
	for _, c := range perfilseguro.DocumentClaims {
		require.Nil(t, documentClaim(nil, c, time.Now()), c)
	}

	shared := sharedClaims(perfilseguro.User{Nombre: "Juan de la Torre"}, &passport, []string{"name", "curp", "nationality"}, time.Now())
	require.Equal(t, map[string]any{"name": "Juan de la Torre", "nationality": "ESP"}, shared)
	require.Equal(t, []string{"curp"}, perfilseguro.UnavailableClaims([]string{"name", "curp", "nationality"}, shared))
	require.Equal(t, []string{"name", "nationality"}, grantedClaims([]string{"name", "curp", "nationality"}, shared))
}

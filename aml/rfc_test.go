package aml_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/aml"
)

// Valid RFCs published with python-stdnum's tests (found online, check digits that compute)
// and in its documentation.
func TestValidRFCs(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		rfc  string
		kind aml.RFCKind
	}{
		{"GODE561231GR8", aml.RFCFisica},
		{"gode 561231 gr8", aml.RFCFisica}, // lower case and spaces are tidied
		{"AAAA791128D63", aml.RFCFisica},
		{"JOFF550129TD7", aml.RFCFisica},
		{"GOAJ7101257MA", aml.RFCFisica}, // check digit A (remainder 1)
		{"MAB-930714-8T4", aml.RFCMoral},
		{"AAA390128530", aml.RFCMoral}, // check digit 0 (remainder 0)
		{"&&&030828PX7", aml.RFCMoral},
		{"MUÑ110218LJ6", aml.RFCMoral},
		{"EDI000229CA3", aml.RFCMoral}, // 29 February 2000
		{"AP&0305026J9", aml.RFCMoral},
		{aml.RFCGenericNational, aml.RFCFisica}, // its check digit does not compute: accepted as generic
		{aml.RFCGenericForeign, aml.RFCFisica},
	} {
		kind, err := aml.ValidRFC(c.rfc)
		require.NoError(t, err, c.rfc)
		require.Equal(t, c.kind, kind, c.rfc)
	}
}

func TestInvalidRFCs(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		rfc  string
		want error
	}{
		{"", aml.ErrRFCFormat},
		{"GODE561231", aml.ErrRFCFormat},     // no homoclave
		{"GODE561231GR", aml.ErrRFCFormat},   // 12 characters but 4 letters
		{"GODE561231GR8X", aml.ErrRFCFormat}, // too long
		{"GOD1561231GR8", aml.ErrRFCFormat},  // a digit among the letters
		{"GODE56123AGR8", aml.ErrRFCFormat},  // a letter in the date
		{"AABN8211038Ñ2", aml.ErrRFCFormat},  // Ñ in the homoclave
		{"GODE561231GRB", aml.ErrRFCFormat},  // the last character is a digit or A
		{"GODE561331GR8", aml.ErrRFCDate},    // month 13
		{"GODE560230GR8", aml.ErrRFCDate},    // 30 February
		{"ABCD123456AB1", aml.ErrRFCDate},
		{"GODE561231GR7", aml.ErrRFCCheckDigit},
		{"VACE460910SX6", aml.ErrRFCCheckDigit}, // python-stdnum's example of a bad check digit
		{"SIN9311169P8", aml.ErrRFCCheckDigit},
		{"XAXX010101001", aml.ErrRFCCheckDigit}, // not the generic RFC
	} {
		_, err := aml.ValidRFC(c.rfc)
		require.ErrorIs(t, err, c.want, c.rfc)
		require.NotEmpty(t, aml.RFCErrorText(err))
	}
	require.Equal(t, "El dígito verificador del RFC no es correcto; revísalo en tu constancia de situación fiscal",
		aml.RFCErrorText(aml.ErrRFCCheckDigit))
	require.Empty(t, aml.RFCErrorText(nil))
}

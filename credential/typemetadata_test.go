package credential

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTypeMetadata(t *testing.T) {
	t.Parallel()
	f := setup(t)
	raw, err := json.Marshal(f.issuer.TypeMetadata())
	require.NoError(t, err)
	var doc struct {
		VCT         string              `json:"vct"`
		Name        string              `json:"name"`
		Description string              `json:"description"`
		Display     []map[string]string `json:"display"`
		Claims      []struct {
			Path    []string            `json:"path"`
			Display []map[string]string `json:"display"`
			SD      string              `json:"sd"`
		} `json:"claims"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))

	require.Equal(t, "https://perfilseguro.mx/credentials/identidad-validada", doc.VCT)
	require.Equal(t, f.issuer.VCT(), doc.VCT)
	require.Equal(t, "Identidad validada – Perfil Seguro", doc.Name)
	require.NotEmpty(t, doc.Description)
	require.Len(t, doc.Display, 1)
	require.Equal(t, "es-MX", doc.Display[0]["lang"])
	require.Equal(t, "es-MX", doc.Display[0]["locale"])
	require.NotEmpty(t, doc.Display[0]["name"])

	want := []struct{ claim, label, sd string }{
		{"profile_id", "ID de perfil", "never"},
		{"verification_level", "Nivel de verificación", "never"},
		{"name", "Nombre", "always"},
		{"validated_at", "Fecha de validación", "always"},
		{"origin", "Origen", "always"},
		{"scores", "Puntajes biométricos", "always"},
		{"given_name", "Nombre(s)", "always"},
		{"family_name", "Apellidos", "always"},
		{"birthdate", "Fecha de nacimiento", "always"},
		{"age_equal_or_over", "Mayoría de edad", "always"},
		{"age_equal_or_over.18", "Mayor de 18 años", "always"},
		{"nationalities", "Nacionalidad", "always"},
		{"personal_administrative_number", "CURP", "always"},
	}
	require.Len(t, doc.Claims, len(want))
	for n, w := range want {
		c := doc.Claims[n]
		require.Equal(t, strings.Split(w.claim, "."), c.Path)
		require.Equal(t, w.sd, c.SD, w.claim)
		require.Equal(t, map[string]string{"lang": "es-MX", "locale": "es-MX", "label": w.label}, c.Display[0])
	}
}

func TestTypeMetadataMatchesIssuedCredential(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.subject.Document = samplePID()
	jwt, _ := parts(t, f.issue(t))
	payload := jwtPart(t, jwt, 1)
	disclosed, err := Disclosed(f.issue(t))
	require.NoError(t, err)
	for _, c := range f.issuer.TypeMetadata()["claims"].([]map[string]any) {
		path := c["path"].([]any)
		if len(path) == 2 { // a member of a disclosed object, itself disclosed
			require.Contains(t, disclosed[path[0].(string)], path[1], "nested claim %v is issued", path)
			continue
		}
		name := path[0].(string)
		require.Contains(t, disclosed, name, "every claim the metadata documents is issued")
		if c["sd"] == "never" {
			require.Contains(t, payload, name, "sd never: in the signed payload")
		} else {
			require.NotContains(t, payload, name, "sd always: only in a disclosure")
		}
	}
	require.Equal(t, f.issuer.VCT(), payload["vct"])
}

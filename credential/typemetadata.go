package credential

// locale is the one language the type metadata is written in.
const locale = "es-MX"

// Names of the credential type, shown by wallets (type metadata and OpenID4VCI metadata).
const (
	typeName        = "Identidad validada – Perfil Seguro"
	typeDisplayName = "Identidad validada"
	typeDescription = "Credencial emitida por Perfil Seguro que acredita que la identidad de la persona fue validada con verificación biométrica."
)

// claimLabels are the credential's top-level claims in display order, with their Spanish label
// and selective disclosure rule (matching what Issue does).
var claimLabels = []struct{ claim, label, sd string }{
	{"profile_id", "ID de perfil", "never"},
	{"verification_level", "Nivel de verificación", "never"},
	{"name", "Nombre", "always"},
	{"validated_at", "Fecha de validación", "always"},
	{"origin", "Origen", "always"},
	{"scores", "Puntajes biométricos", "always"},
	// The identity document's data (issue 52), under the EUDI PID claim names; only in the
	// credentials of profiles whose name was read from their document.
	{ClaimGivenName, "Nombre(s)", "always"},
	{ClaimFamilyName, "Apellidos", "always"},
	{ClaimBirthdate, "Fecha de nacimiento", "always"},
	{ClaimAgeOver, "Mayoría de edad", "always"},
	{ClaimNationality, "Nacionalidad", "always"},
	{ClaimCURP, "CURP", "always"},
}

// nestedClaims are claims inside a top-level claim (a path of two), after their parent in the
// metadata: age_equal_or_over's "18" is a disclosure of its own.
var nestedClaims = []struct {
	path      []any
	label, sd string
	parent    string
}{
	{[]any{ClaimAgeOver, "18"}, "Mayor de 18 años", "always", ClaimAgeOver},
}

// TypeMetadata is the SD-JWT VC Type Metadata served at the VCT URL: names, Spanish labels, and
// which claims are always or never selectively disclosable (matching what Issue does).
func (i *Issuer) TypeMetadata() map[string]any {
	claims := make([]map[string]any, 0, len(claimLabels))
	for _, c := range claimLabels {
		claims = append(claims, claimMetadata([]any{c.claim}, c.label, c.sd))
		for _, n := range nestedClaims {
			if n.parent == c.claim {
				claims = append(claims, claimMetadata(n.path, n.label, n.sd))
			}
		}
	}
	return map[string]any{
		"vct":         i.VCT(),
		"name":        typeName,
		"description": typeDescription,
		"display": []map[string]any{
			localized(map[string]any{"name": typeDisplayName, "description": typeDescription}),
		},
		"claims": claims,
	}
}

// claimMetadata describes one claim by its path: its Spanish label and its selective disclosure rule.
func claimMetadata(path []any, label, sd string) map[string]any {
	return map[string]any{
		"path":    path,
		"display": []map[string]any{localized(map[string]any{"label": label})},
		"sd":      sd,
	}
}

// localized tags a display entry with its language. The current draft calls the member "locale";
// earlier drafts called it "lang", which wallets built on them still read. Consumers ignore
// members they do not understand, so both are sent.
func localized(entry map[string]any) map[string]any {
	entry["locale"] = locale
	entry["lang"] = locale
	return entry
}

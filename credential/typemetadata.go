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
}

// TypeMetadata is the SD-JWT VC Type Metadata served at the VCT URL: names, Spanish labels, and
// which claims are always or never selectively disclosable (matching what Issue does).
func (i *Issuer) TypeMetadata() map[string]any {
	claims := make([]map[string]any, 0, len(claimLabels))
	for _, c := range claimLabels {
		claims = append(claims, claimMetadata(c.claim, c.label, c.sd))
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

// claimMetadata describes one top-level claim: its Spanish label and its selective disclosure rule.
func claimMetadata(claim, label, sd string) map[string]any {
	return map[string]any{
		"path":    []any{claim},
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

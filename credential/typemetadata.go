package credential

// locale is the one language the type metadata is written in.
const locale = "es-MX"

// TypeMetadata is the SD-JWT VC Type Metadata served at the VCT URL: names, Spanish labels, and
// which claims are always or never selectively disclosable (matching what Issue does).
func (i *Issuer) TypeMetadata() map[string]any {
	const (
		name        = "Identidad validada – Perfil Seguro"
		description = "Credencial emitida por Perfil Seguro que acredita que la identidad de la persona fue validada con verificación biométrica."
	)
	return map[string]any{
		"vct":         i.VCT(),
		"name":        name,
		"description": description,
		"display": []map[string]any{
			localized(map[string]any{"name": "Identidad validada", "description": description}),
		},
		"claims": []map[string]any{
			claimMetadata("profile_id", "ID de perfil", "never"),
			claimMetadata("verification_level", "Nivel de verificación", "never"),
			claimMetadata("name", "Nombre", "always"),
			claimMetadata("validated_at", "Fecha de validación", "always"),
			claimMetadata("origin", "Origen", "always"),
			claimMetadata("scores", "Puntajes biométricos", "always"),
		},
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

package credential

// ConfigurationID names the one credential configuration of the OpenID4VCI metadata; offers and
// credential requests refer to it.
const ConfigurationID = "identidad_validada"

// CredentialConfiguration is the entry of credential_configurations_supported in the OpenID4VCI
// 1.0 Credential Issuer Metadata (§12.2.4 and Appendix A.3): dc+sd-jwt of this issuer's vct,
// signed ES256, bound to a JWK the wallet proves with an ES256 jwt key proof, and described in
// es-MX under credential_metadata (display, and claims by path, as in the type metadata).
// logoURI is an absolute URL of the issuer's logo.
func (i *Issuer) CredentialConfiguration(logoURI string) map[string]any {
	claims := make([]map[string]any, 0, len(claimLabels))
	for _, c := range claimLabels {
		claim := map[string]any{
			"path":    []any{c.claim},
			"display": []map[string]any{{"name": c.label, "locale": locale}},
		}
		if c.sd == "never" { // in every credential, never left out of a presentation
			claim["mandatory"] = true
		}
		claims = append(claims, claim)
		for _, n := range nestedClaims {
			if n.parent == c.claim {
				claims = append(claims, map[string]any{"path": n.path,
					"display": []map[string]any{{"name": n.label, "locale": locale}}})
			}
		}
	}
	return map[string]any{
		"format": typSDJWTVC,
		"vct":    i.VCT(),
		"credential_signing_alg_values_supported": []string{"ES256"},
		"cryptographic_binding_methods_supported": []string{"jwk"},
		"proof_types_supported": map[string]any{
			"jwt": map[string]any{"proof_signing_alg_values_supported": []string{"ES256"}},
		},
		"credential_metadata": map[string]any{
			"display": []map[string]any{{
				"name":             typeDisplayName,
				"locale":           locale,
				"description":      typeDescription,
				"logo":             map[string]any{"uri": logoURI, "alt_text": "Logotipo de Perfil Seguro"},
				"background_color": "#1e3a8a",
				"text_color":       "#ffffff",
			}},
			"claims": claims,
		},
	}
}

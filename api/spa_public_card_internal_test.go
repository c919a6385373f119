package api

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The card the server writes into #root of /verify/{id} sits in the site's frame as the build
// prerendered it (so nothing moves when React replaces it), escapes what the profile holds and
// says what the React card says for a revoked profile (issue 54 item 19).
func TestThePublicCardSitsInTheSiteFrameEscaped(t *testing.T) {
	t.Parallel()
	revokedAt := time.Date(2026, 3, 5, 3, 0, 0, 0, time.UTC) // 4 March in Mexico City
	answer, err := json.Marshal(PublicVerifyResponse{Profile: PublicProfileJSON{
		ID: "PS-2024-0917-42", Nombre: `Ana <script>alert(1)</script>`, Origen: "Otro",
		NivelVerificacion: 3, Verificado: true, Revocado: true, FechaRevocacion: &revokedAt, VigenciaAnos: 2}})
	require.NoError(t, err)
	card := string(publicCardHTML(answer))
	require.Contains(t, card, `<h2 class="card-title text-2xl">Ana &lt;script&gt;alert(1)&lt;/script&gt;</h2>`)
	require.NotContains(t, card, "<script")
	require.Contains(t, card, `data-testid="public-badge">Revocado</span>`)
	require.Contains(t, card, ">Revocado</dd>")
	require.Contains(t, card, ">2 años</dd>")
	require.Contains(t, card, "revocó la validación de esta identidad el 4 de marzo de 2026. No la consideres válida.")
	require.Contains(t, card, "Este perfil aún no tiene una verificación biométrica registrada.")

	page := []byte(`<html><head></head><body><div id="root"></div>` +
		`<template id="shell:/login:light"><div inert aria-hidden="true"><div class="frame"><header>H</header>` +
		`<main class="m"><!--$-->login<!--/$--></main><footer>F</footer></div></div></template></body></html>`)
	out := string(withPublicCard(page, []byte(card)))
	require.Contains(t, out, `<div id="root"><div class="frame"><header>H</header><main class="m">`+card+`</main><footer>F</footer></div></div>`)
	require.Equal(t, string(page), string(withPublicCard(page, nil)), "no card, no change")
}

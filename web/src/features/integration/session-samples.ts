// The drop-in's samples (issue 36): the partner's page opens our hosted flow with a client
// secret its own server got with the secret key. Generated with the site's own origin as the API
// base, so they work as printed against this server (e2e/tests/integration.spec.ts runs them).

import { PHP_CURL_CALL } from './sample-snippets'

/** The publishable key placeholder (the partner's pages). */
export const PUBLISHABLE_KEY_PLACEHOLDER = 'pk_test_tu_llave_publicable'

/** The secret key placeholder (the partner's servers). */
export const SECRET_KEY_PLACEHOLDER = 'sk_test_tu_llave_secreta'

/**
 * The Subresource Integrity hash of web/public/widget/v1.js, printed in the drop-in snippet so a
 * partner's page runs only the script we published. The tests compare it with the file (vitest)
 * and with what the server serves (e2e); docs/partners.md publishes the same hash.
 */
export const DROP_IN_INTEGRITY = 'sha384-LVk3R5lMRm0AlVlzpPepLVASJgxcevl90ZYe0LUZOHe8aVT+SRWpi/iWbmhgdNji'

/** The page: the script, a button, and the call to the partner's own server for a client secret. */
export function dropInSample(apiBase: string): string {
  return `<!-- Perfil Seguro · widget listo para usar. Tu página pide a TU servidor una sesión
     (con tu llave secreta) y abre nuestro flujo con la llave publicable. integrity= hace que el
     navegador ejecute solo el archivo que publicamos: si lo cambiamos, te avisamos el nuevo valor. -->
<script src="${apiBase}/widget/v1.js"
        integrity="${DROP_IN_INTEGRITY}"
        crossorigin="anonymous"></script>

<button id="validar" type="button">Validar con Perfil Seguro</button>
<p id="resultado" role="status"></p>

<script>
  const perfilSeguro = PerfilSeguro('${PUBLISHABLE_KEY_PLACEHOLDER}');

  document.getElementById('validar').addEventListener('click', async () => {
    // Tu servidor crea la sesión (ver «Desde tu servidor») y devuelve solo su clientSecret.
    const sesion = await fetch('/api/sesion', { method: 'POST' }).then((r) => r.json());
    // En computadora abre una ventana; en teléfonos (o si se bloquean las ventanas) cambia de
    // página y vuelve a tu returnUrl con ?perfilseguro_session=…&perfilseguro_status=…
    const { id, status } = await perfilSeguro.verify(sesion.clientSecret);
    // status solo dice cómo terminó en este navegador: confirma en tu servidor antes de confiar.
    document.getElementById('resultado').textContent = 'Sesión ' + id + ': ' + status;
  });

  // Al volver de la variante de página completa:
  const vuelta = PerfilSeguro.resultFromUrl();
  if (vuelta) document.getElementById('resultado').textContent = 'Sesión ' + vuelta.id + ': ' + vuelta.status;
</script>

<!-- O, sin escribir JavaScript, el elemento con la dirección de tu servidor que crea la sesión:
<perfil-seguro-button publishable-key="${PUBLISHABLE_KEY_PLACEHOLDER}" session-endpoint="/api/sesion"></perfil-seguro-button>
-->`
}

/** Node.js 18+: create and read sessions with the secret key; a command-line tool as printed. */
export function nodeSessionSample(apiBase: string): string {
  return `// Perfil Seguro · sesiones de verificación desde tu servidor (Node.js 18 o posterior, sin dependencias)
// Uso: PERFIL_SEGURO_SECRET_KEY=sk_test_... node sesion.mjs crear <tu-referencia> <nivel: 2 o 3>
//      PERFIL_SEGURO_SECRET_KEY=sk_test_... node sesion.mjs consultar <vs_...>
const API_BASE = '${apiBase}';
const SECRET_KEY = process.env.PERFIL_SEGURO_SECRET_KEY || '${SECRET_KEY_PLACEHOLDER}';

async function perfilSeguro(method, path, body) {
  const response = await fetch(API_BASE + path, {
    method,
    headers: { Authorization: 'Bearer ' + SECRET_KEY, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new Error((data && data.message) || response.status + ': ' + response.statusText);
  return data;
}

// Crea la sesión: entrega clientSecret a tu página (nunca tu llave secreta). Vale una sola vez,
// hasta expiresAt. requiredLevel: 2 (correo verificado) o 3 (verificación biométrica vigente).
export function createSession(reference, requiredLevel) {
  return perfilSeguro('POST', '/api/partner/v1/verification-sessions', {
    reference,                  // tu propio identificador de la persona o del trámite
    requiredLevel,
    claims: ['name', 'validUntil'], // solo lo que necesitas: name, profileId, validUntil, level
  });
}

// Consulta la sesión: status y, si es 'completed', shared (los datos) y proof (JWS firmado).
// Si después la persona retiró el acceso o eliminó su cuenta: shared es null, sharedReason
// dice 'withdrawn' o 'deleted', y ya no hay proof.
export function getSession(id) {
  return perfilSeguro('GET', '/api/partner/v1/verification-sessions/' + encodeURIComponent(id));
}

const [command, arg, level] = process.argv.slice(2);
if (command === 'crear' || command === 'consultar') {
  try {
    const result = command === 'crear' ? await createSession(arg, Number(level)) : await getSession(arg);
    console.log(JSON.stringify(result));
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
`
}

/** PHP 7.4+ with cURL: the same two calls; false on any non-2xx answer. */
export function phpSessionSample(apiBase: string): string {
  return `<?php
// Perfil Seguro · sesiones de verificación desde tu servidor (PHP cURL)
// Uso: php sesion.php crear <tu-referencia> <nivel: 2 o 3> | php sesion.php consultar <vs_...>
const PERFIL_SEGURO_API = '${apiBase}';
const PERFIL_SEGURO_SECRET_KEY = '${SECRET_KEY_PLACEHOLDER}';

// La respuesta como arreglo, o false ante cualquier estado distinto de 2xx.
function perfilSeguroSession($method, $path, $body = null)
{
    $headers = ['Accept: application/json', 'Authorization: Bearer ' . PERFIL_SEGURO_SECRET_KEY];
${PHP_CURL_CALL}
    if ($response === false || $status < 200 || $status > 299) {
        return false;
    }
    return json_decode($response, true);
}

// Crea la sesión; entrega $sesion['clientSecret'] a tu página. $requiredLevel: 2 (correo
// verificado) o 3 (verificación biométrica vigente).
function createSession($reference, $requiredLevel)
{
    return perfilSeguroSession('POST', '/api/partner/v1/verification-sessions',
        ['reference' => $reference, 'requiredLevel' => $requiredLevel, 'claims' => ['name', 'validUntil']]);
}

// status; si es 'completed', 'shared' trae los datos y 'proof' la prueba firmada (o, tras un
// retiro o una eliminación de cuenta, 'shared' null y 'sharedReason' withdrawn o deleted).
function getSession($id)
{
    return perfilSeguroSession('GET', '/api/partner/v1/verification-sessions/' . rawurlencode($id));
}

if (PHP_SAPI === 'cli' && isset($argv[1]) && in_array($argv[1], ['crear', 'consultar'], true)) {
    echo json_encode($argv[1] === 'crear' ? createSession($argv[2], (int) ($argv[3] ?? 0)) : getSession($argv[2])), PHP_EOL;
}
`
}

/** Go 1.21+: the same two calls with the standard library, and the webhook signature check. */
export function goSessionSample(apiBase: string): string {
  return `// Perfil Seguro · sesiones de verificación desde tu servidor (Go, solo biblioteca estándar)
// Uso: PERFIL_SEGURO_SECRET_KEY=sk_test_... go run sesion.go crear <tu-referencia> <nivel: 2 o 3>
//      PERFIL_SEGURO_SECRET_KEY=sk_test_... go run sesion.go consultar <vs_...>
package main

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

const apiBase = "${apiBase}"

var secretKey = envOr("PERFIL_SEGURO_SECRET_KEY", "${SECRET_KEY_PLACEHOLDER}")

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

// perfilSeguro llama a la API con tu llave secreta y decodifica la respuesta en out.
func perfilSeguro(method, path string, body, out any) error {
	var payload bytes.Buffer
	if body != nil {
		if err := json.NewEncoder(&payload).Encode(body); err != nil {
			return err
		}
	}
	req, err := http.NewRequest(method, apiBase+path, &payload)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+secretKey)
	req.Header.Set("Content-Type", "application/json")
	res, err := (&http.Client{Timeout: 15 * time.Second}).Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode/100 != 2 {
		var e struct{ Message string }
		json.NewDecoder(res.Body).Decode(&e)
		return fmt.Errorf("%d: %s", res.StatusCode, e.Message)
	}
	return json.NewDecoder(res.Body).Decode(out)
}

// CreateSession crea la sesión; entrega ClientSecret a tu página. requiredLevel: 2 (correo
// verificado) o 3 (verificación biométrica vigente).
func CreateSession(reference string, requiredLevel int) (map[string]any, error) {
	var out map[string]any
	err := perfilSeguro("POST", "/api/partner/v1/verification-sessions", map[string]any{
		"reference": reference, "requiredLevel": requiredLevel, "claims": []string{"name", "validUntil"}}, &out)
	return out, err
}

// GetSession: status y, si es "completed", shared (los datos) y proof (JWS firmado); tras un
// retiro o una eliminación de cuenta, shared es null y sharedReason dice "withdrawn" o "deleted".
func GetSession(id string) (map[string]any, error) {
	var out map[string]any
	err := perfilSeguro("GET", "/api/partner/v1/verification-sessions/"+id, nil, &out)
	return out, err
}

// VerifyWebhook comprueba X-PerfilSeguro-Signature: t=<segundos Unix>,v1=<HMAC-SHA256 de "<t>.<cuerpo>">
// (durante una rotación del secreto llegan dos v1: basta con que una coincida).
func VerifyWebhook(secret, header string, body []byte, now time.Time) bool {
	var t string
	var signatures []string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			t = v
		case "v1":
			signatures = append(signatures, v)
		}
	}
	unix, err := strconv.ParseInt(t, 10, 64)
	if err != nil || now.Sub(time.Unix(unix, 0)).Abs() > 5*time.Minute {
		return false
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(t + "."))
	mac.Write(body)
	expected := hex.EncodeToString(mac.Sum(nil))
	for _, s := range signatures {
		if hmac.Equal([]byte(s), []byte(expected)) {
			return true
		}
	}
	return false
}

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "uso: go run sesion.go crear <referencia> <nivel: 2 o 3> | consultar <vs_...>")
		os.Exit(2)
	}
	var result map[string]any
	var err error
	if os.Args[1] == "crear" {
		level := 0
		if len(os.Args) > 3 {
			level, _ = strconv.Atoi(os.Args[3])
		}
		result, err = CreateSession(os.Args[2], level)
	} else {
		result, err = GetSession(os.Args[2])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	json.NewEncoder(os.Stdout).Encode(result)
}
`
}

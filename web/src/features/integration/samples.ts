// The copyable samples of the integration documentation (SPEC §2, §7). They are generated
// with the site's own origin as the API base, so they work as printed against this server.

import { BROWSER_REQUEST, PHP_CURL_CALL } from './sample-snippets'

/** The publishable key placeholder of the first version's widget calls (browser and PHP samples). */
export const PARTNER_KEY_PLACEHOLDER = 'pk_tu_llave_de_socio'

/** The secret key placeholder of the server samples (the PHP status lookup, the presentation poll). */
export const PHP_SECRET_KEY_PLACEHOLDER = 'sk_tu_llave_secreta'

/**
 * Browser sample of the first version's widget (the legacy path): plain JavaScript with fetch, no
 * modules, no build step. Every call carries the publishable key; the origin alone is refused.
 */
export function javascriptSample(apiBase: string): string {
  return `// Perfil Seguro · widget de la primera versión (JavaScript, fetch) · llamadas heredadas
// Desde tu dominio registrado y siempre con tu llave publicable (X-Partner-Key): tu dominio solo
// ya no identifica a tu plataforma. Para integraciones nuevas usa el widget listo para usar.
const API_BASE = '${apiBase}';
const PUBLISHABLE_KEY = '${PARTNER_KEY_PLACEHOLDER}';

async function perfilSeguroRequest(path, options = {}) {
  const response = await fetch(API_BASE + path, {
    credentials: 'include',
    ...options,
    headers: { 'X-Partner-Key': PUBLISHABLE_KEY, ...(options.body ? { 'Content-Type': 'application/json' } : {}) },
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    throw new Error((data && data.message) || response.status + ': ' + response.statusText);
  }
  return data;
}

// 1. Inicio de sesión o registro: envía el código de 6 dígitos. nextStep: 'verify_code'.
async function loginUser({ email, phoneNumber }) {
  return perfilSeguroRequest('/api/widget/login', {
    method: 'POST',
    body: JSON.stringify({ email, phoneNumber }),
  });
}

// 2. Verificación del código con el userId devuelto por loginUser (identifica ese intento, no a
//    la persona). nextStep: 'biometric_verification' (nivel 1 alcanzado).
async function verifyCode(userId, code) {
  return perfilSeguroRequest('/api/widget/verify-code', {
    method: 'POST',
    body: JSON.stringify({ userId, code }),
  });
}

// 3. El estado por correo (GET /api/widget/verify) no se consulta desde el navegador: tu servidor
//    lo pide con tu llave secreta, y solo de quien compartió su perfil con tu plataforma.

// Ejemplo de uso:
// const login = await loginUser({ email: 'cliente@ejemplo.com', phoneNumber: '+525512345678' });
// const verification = await verifyCode(login.userId, '123456');
`
}

/** React sample of the first version's widget: a hook that keeps the userId between login and verification. */
export function reactHookSample(apiBase: string): string {
  return `// Perfil Seguro · hook de React para el widget de la primera versión (llamadas heredadas)
import { useCallback, useState } from 'react';

const API_BASE = '${apiBase}';
const PUBLISHABLE_KEY = '${PARTNER_KEY_PLACEHOLDER}';

${BROWSER_REQUEST}

export function usePerfilSeguro() {
  const [userId, setUserId] = useState(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState(null);

  const run = useCallback(async (task) => {
    setLoading(true);
    setError(null);
    try {
      return await task();
    } catch (err) {
      setError(err);
      throw err;
    } finally {
      setLoading(false);
    }
  }, []);

  // Envía el código (registra a la persona si es nueva). nextStep: 'verify_code'.
  const login = useCallback(
    ({ email, phoneNumber }) =>
      run(async () => {
        const data = await request('/api/widget/login', { email, phoneNumber });
        setUserId(data.userId);
        return data;
      }),
    [run],
  );

  // Verifica el código con el userId del login. nextStep: 'biometric_verification'.
  const verify = useCallback(
    (code) => {
      if (!userId) {
        return Promise.reject(new Error('No userId available'));
      }
      return run(() => request('/api/widget/verify-code', { userId, code }));
    },
    [run, userId],
  );

  // El estado de validación por correo lo consulta tu servidor con tu llave secreta, no el navegador.
  return { userId, loading, error, login, verify };
}
`
}

/** Server-to-server sample: PHP cURL with the partner key; false on any non-200 answer. */
export function phpSample(apiBase: string): string {
  return `<?php
// Perfil Seguro · llamadas de servidor a servidor (PHP cURL)
// Sin encabezado Origin, tu servidor se identifica con tu llave publicable; el estado de una
// persona, con tu llave secreta (solo de quien compartió su perfil con tu plataforma).
const PERFIL_SEGURO_API = '${apiBase}';
const PERFIL_SEGURO_KEY = '${PARTNER_KEY_PLACEHOLDER}';
const PERFIL_SEGURO_SECRET_KEY = '${PHP_SECRET_KEY_PLACEHOLDER}';

// Devuelve la respuesta como arreglo, o false ante cualquier estado distinto de 200.
function perfilSeguroRequest($method, $path, $body = null, $secret = false)
{
    $headers = ['Accept: application/json', $secret
        ? 'Authorization: Bearer ' . PERFIL_SEGURO_SECRET_KEY
        : 'X-Partner-Key: ' . PERFIL_SEGURO_KEY];
${PHP_CURL_CALL}
    if ($response === false || $status !== 200) {
        return false;
    }
    return json_decode($response, true);
}

// 1. Inicio de sesión o registro: envía el código. nextStep: 'verify_code'.
function loginUser($email = null, $phoneNumber = null)
{
    $body = array_filter(['email' => $email, 'phoneNumber' => $phoneNumber]);
    return perfilSeguroRequest('POST', '/api/widget/login', $body);
}

// 2. Verificación del código con el userId del login. nextStep: 'biometric_verification'.
function verifyCode($userId, $code)
{
    return perfilSeguroRequest('POST', '/api/widget/verify-code', ['userId' => $userId, 'code' => $code]);
}

// 3. Estado de validación por correo electrónico (llave secreta).
function checkVerificationStatus($email)
{
    return perfilSeguroRequest('GET', '/api/widget/verify?email=' . urlencode($email), null, true);
}

// Ejemplo de uso:
// $login = loginUser('cliente@ejemplo.com', '+525512345678');
// if ($login === false) { /* manejar el error */ }
// $verification = verifyCode($login['userId'], '123456');
// $status = checkVerificationStatus('cliente@ejemplo.com');
`
}

/** The webhook secret placeholder in the webhook receiver sample. */
export const WEBHOOK_SECRET_PLACEHOLDER = 'whsec_tu_secreto_de_webhook'

/**
 * Server sample for a presentation request (OpenID4VP): create it with the partner's secret key,
 * show the QR and link, poll every 2 seconds. Node.js 18 or later, no dependencies.
 */
export function presentationServerSample(apiBase: string): string {
  return `// Perfil Seguro · pedir el nombre de una persona a su billetera digital (OpenID4VP)
// Node.js 18 o posterior, sin dependencias. Uso: PERFIL_SEGURO_SECRET_KEY=sk_live_... node presentacion.mjs
// Solo en tu servidor: la llave secreta lee los datos compartidos y nunca va a un navegador.
import { writeFile } from 'node:fs/promises';

const API_BASE = '${apiBase}';
const SECRET_KEY = process.env.PERFIL_SEGURO_SECRET_KEY || '${PHP_SECRET_KEY_PLACEHOLDER}';

async function perfilSeguro(method, path, body) {
  const response = await fetch(API_BASE + path, {
    method,
    headers: body
      ? { Authorization: 'Bearer ' + SECRET_KEY, 'Content-Type': 'application/json' }
      : { Authorization: 'Bearer ' + SECRET_KEY },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    throw new Error((data && data.message) || response.status + ': ' + response.statusText);
  }
  return data;
}

// 1. La solicitud: solo el nombre (claims: ['name']). Vale 5 minutos.
const request = await perfilSeguro('POST', '/api/widget/presentations', { claims: ['name'] });

// 2. Muéstrala a la persona: el QR (PNG en una data: URL, listo para un <img>) o el enlace
//    openid4vp:// si su billetera está en el mismo teléfono.
await writeFile('presentacion-qr.png', Buffer.from(request.qrUrl.split(',')[1], 'base64'));
console.log('Escanea presentacion-qr.png con tu billetera o abre este enlace en el teléfono:');
console.log(request.requestUri);

// 3. Consulta cada 2 segundos hasta que la persona responda o la solicitud venza.
let state;
do {
  await new Promise((resolve) => setTimeout(resolve, 2000));
  state = await perfilSeguro('GET', '/api/widget/presentations/' + request.id);
} while (state.status === 'pending');

// completed: state.claims trae solo lo pedido, por ejemplo { name: 'María Fernanda López' }.
// failed: state.error dice por qué se rechazó. expired: nadie respondió en 5 minutos.
console.log(state.status, state.claims || state.error || '');
`
}

/**
 * Webhook receiver sample: checks X-PerfilSeguro-Signature (HMAC-SHA256 over "<t>.<body>", 5
 * minutes of tolerance), ignores repeated deliveries and reads presentation.completed.
 */
export function webhookReceiverSample(): string {
  return `// Perfil Seguro · recibir el webhook presentation.completed (Node.js, sin dependencias)
// Uso: WEBHOOK_SECRET=whsec_... node webhook.mjs
// El secreto se muestra una sola vez, cuando nuestro equipo configura la URL de tu webhook.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const WEBHOOK_SECRET = process.env.WEBHOOK_SECRET || '${WEBHOOK_SECRET_PLACEHOLDER}';
const TOLERANCE_SECONDS = 5 * 60;

// X-PerfilSeguro-Signature: t=<segundos Unix>,v1=<HMAC-SHA256 hexadecimal de "<t>.<cuerpo exacto>">
function verifySignature(header, rawBody, secret, nowSeconds = Math.floor(Date.now() / 1000)) {
  const parts = {};
  for (const part of String(header || '').split(',')) {
    const [key, value] = part.trim().split('=');
    parts[key] = value;
  }
  if (!/^[0-9]+$/.test(parts.t || '') || !parts.v1) return false;
  if (Math.abs(nowSeconds - Number(parts.t)) > TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(parts.t + '.').update(rawBody).digest('hex'));
  const received = Buffer.from(parts.v1);
  return expected.length === received.length && timingSafeEqual(expected, received);
}

// Entregas ya procesadas (X-PerfilSeguro-Delivery): un reintento trae el mismo valor.
// En producción guárdalas en tu base de datos.
const delivered = new Set();

function handleEvent(event) {
  if (event.event === 'presentation.completed') {
    // event.id es el id de tu solicitud; event.claims trae solo lo que pediste: { name: '…' }.
    console.log('Presentación', event.id, 'completada:', event.claims);
  }
}

createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks); // el cuerpo exacto, antes de interpretarlo
    if (!verifySignature(req.headers['x-perfilseguro-signature'], body, WEBHOOK_SECRET)) {
      res.writeHead(401).end();
      return;
    }
    const delivery = req.headers['x-perfilseguro-delivery'];
    if (!delivered.has(delivery)) {
      delivered.add(delivery);
      handleEvent(JSON.parse(body.toString('utf8')));
    }
    res.writeHead(204).end(); // 2xx: recibido; cualquier otra respuesta se reintenta
  });
}).listen(Number(process.env.PORT) || 3000);
`
}

/**
 * The widget's "Verificar con billetera" as a React component for the partner's page: it asks for
 * the name, shows the QR and the same-device link, polls every 2 seconds and shows the result.
 * Browser calls from the partner's authorized domain, like the other widget calls.
 */
export function walletWidgetSample(apiBase: string): string {
  return `// Perfil Seguro · «Verificar con billetera» para tu widget (React)
// La persona comparte su nombre desde su billetera digital (OpenID4VP).
// Desde tu dominio registrado, con tu llave publicable (X-Partner-Key) y cookies (credentials: 'include').
import { useEffect, useState } from 'react';

const API_BASE = '${apiBase}';
const PUBLISHABLE_KEY = '${PARTNER_KEY_PLACEHOLDER}';
const POLL_MS = 2000;
// Los datos compartidos no llegan al navegador: tu servidor los lee con tu llave secreta
// (GET /api/widget/presentations/{id}) o los recibe en el webhook presentation.completed.

${BROWSER_REQUEST}

export function VerificarConBilletera({ claims = ['name'] }) {
  const [pending, setPending] = useState(null); // { id, requestUri, qrUrl, expiresAt }
  const [result, setResult] = useState(null); // { status, claims, error }
  const [error, setError] = useState(null);
  const [starting, setStarting] = useState(false);

  async function start() {
    setStarting(true);
    setError(null);
    setResult(null);
    try {
      setPending(await request('/api/widget/presentations', { claims }));
    } catch (err) {
      setError(err.message);
    } finally {
      setStarting(false);
    }
  }

  // Consulta cada 2 segundos hasta completed, failed o expired.
  useEffect(() => {
    if (!pending) return undefined;
    let stopped = false;
    let timer;
    async function poll() {
      try {
        const state = await request('/api/widget/presentations/' + pending.id);
        if (stopped) return;
        if (state.status === 'pending') {
          timer = setTimeout(poll, POLL_MS);
          return;
        }
        setResult(state);
        setPending(null);
      } catch (err) {
        if (stopped) return;
        setError(err.message);
        setPending(null);
      }
    }
    timer = setTimeout(poll, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [pending]);

  if (pending) {
    return (
      <div className="perfil-seguro-billetera">
        <img src={pending.qrUrl} width="240" height="240" alt="Código QR para verificar tu identidad con tu billetera digital" />
        <p>Escanea el código con tu billetera digital.</p>
        <p>
          <a href={pending.requestUri}>Abrir en la billetera de este dispositivo</a>
        </p>
        <p role="status">Esperando la respuesta de tu billetera…</p>
      </div>
    );
  }

  return (
    <div className="perfil-seguro-billetera">
      {result && result.status === 'completed' && (
        <div role="status">
          <p>Identidad verificada con tu billetera.</p>
          <p>Compartiste tus datos: la plataforma los recibe en su servidor.</p>
        </div>
      )}
      {result && result.status === 'failed' && (
        <p role="alert">No pudimos comprobar tu credencial: {result.error}</p>
      )}
      {result && result.status === 'expired' && (
        <p role="alert">La solicitud venció sin respuesta. Vuelve a intentarlo.</p>
      )}
      {error && <p role="alert">{error}</p>}
      {(!result || result.status !== 'completed') && (
        <button type="button" onClick={start} disabled={starting}>
          {starting ? 'Preparando…' : 'Verificar con billetera'}
        </button>
      )}
    </div>
  );
}
`
}

// The copyable samples of the integration documentation (SPEC §2, §7). They are generated
// with the site's own origin as the API base, so they work as printed against this server.

/** The partner key placeholder in the server-to-server sample. */
export const PARTNER_KEY_PLACEHOLDER = 'pk_tu_llave_de_socio'

/** Browser sample: plain JavaScript with fetch (no modules, no build step). */
export function javascriptSample(apiBase: string): string {
  return `// Perfil Seguro · Widget de Validación Universal (JavaScript, fetch)
// Tu dominio debe estar autorizado: las llamadas viajan con cookies (credentials: 'include').
const API_BASE = '${apiBase}';

async function perfilSeguroRequest(path, options = {}) {
  const response = await fetch(API_BASE + path, {
    credentials: 'include',
    ...options,
    headers: options.body ? { 'Content-Type': 'application/json' } : undefined,
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

// 2. Verificación del código con el userId devuelto por loginUser (no el correo).
//    nextStep: 'biometric_verification' (nivel 1 alcanzado).
async function verifyCode(userId, code) {
  return perfilSeguroRequest('/api/widget/verify-code', {
    method: 'POST',
    body: JSON.stringify({ userId, code }),
  });
}

// 3. Consulta del estado de validación por correo electrónico.
async function checkVerificationStatus(email) {
  return perfilSeguroRequest('/api/widget/verify?email=' + encodeURIComponent(email));
}

// Ejemplo de uso:
// const login = await loginUser({ email: 'cliente@ejemplo.com', phoneNumber: '+525512345678' });
// const verification = await verifyCode(login.userId, '123456');
// const status = await checkVerificationStatus('cliente@ejemplo.com');
`
}

/** React sample: a hook that keeps the userId between login and verification. */
export function reactHookSample(apiBase: string): string {
  return `// Perfil Seguro · hook de React para el widget
import { useCallback, useState } from 'react';

const API_BASE = '${apiBase}';

async function request(path, body) {
  const response = await fetch(API_BASE + path, {
    method: body ? 'POST' : 'GET',
    credentials: 'include',
    headers: body ? { 'Content-Type': 'application/json' } : undefined,
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    throw new Error((data && data.message) || response.status + ': ' + response.statusText);
  }
  return data;
}

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

  // Estado de validación por correo: { valid, verified, name, profileId, vigencia, message }.
  const checkStatus = useCallback(
    (email) => run(() => request('/api/widget/verify?email=' + encodeURIComponent(email))),
    [run],
  );

  return { userId, loading, error, login, verify, checkStatus };
}
`
}

/** Server-to-server sample: PHP cURL with the partner key; false on any non-200 answer. */
export function phpSample(apiBase: string): string {
  return `<?php
// Perfil Seguro · llamadas de servidor a servidor (PHP cURL)
// Sin encabezado Origin, tu servidor se identifica con la llave de socio (keyId).
const PERFIL_SEGURO_API = '${apiBase}';
const PERFIL_SEGURO_KEY = '${PARTNER_KEY_PLACEHOLDER}';

// Devuelve la respuesta como arreglo, o false ante cualquier estado distinto de 200.
function perfilSeguroRequest($method, $path, $body = null)
{
    $headers = ['Accept: application/json', 'X-Partner-Key: ' . PERFIL_SEGURO_KEY];
    $ch = curl_init(PERFIL_SEGURO_API . $path);
    curl_setopt($ch, CURLOPT_CUSTOMREQUEST, $method);
    curl_setopt($ch, CURLOPT_RETURNTRANSFER, true);
    curl_setopt($ch, CURLOPT_TIMEOUT, 15);
    if ($body !== null) {
        $headers[] = 'Content-Type: application/json';
        curl_setopt($ch, CURLOPT_POSTFIELDS, json_encode($body));
    }
    curl_setopt($ch, CURLOPT_HTTPHEADER, $headers);
    $response = curl_exec($ch);
    $status = curl_getinfo($ch, CURLINFO_HTTP_CODE);
    curl_close($ch);
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

// 3. Estado de validación por correo electrónico.
function checkVerificationStatus($email)
{
    return perfilSeguroRequest('GET', '/api/widget/verify?email=' . urlencode($email));
}

// Ejemplo de uso:
// $login = loginUser('cliente@ejemplo.com', '+525512345678');
// if ($login === false) { /* manejar el error */ }
// $verification = verifyCode($login['userId'], '123456');
// $status = checkVerificationStatus('cliente@ejemplo.com');
`
}

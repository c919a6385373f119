// Pieces that several copyable samples print alike, written once so the samples stay in step.

/**
 * The browser samples' request helper: POST with a JSON body, GET without, always with the
 * publishable key (the sample declares PUBLISHABLE_KEY); throws the server's message.
 */
export const BROWSER_REQUEST = `async function request(path, body) {
  const response = await fetch(API_BASE + path, {
    method: body ? 'POST' : 'GET',
    credentials: 'include',
    headers: body ? { 'X-Partner-Key': PUBLISHABLE_KEY, 'Content-Type': 'application/json' } : { 'X-Partner-Key': PUBLISHABLE_KEY },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    throw new Error((data && data.message) || response.status + ': ' + response.statusText);
  }
  return data;
}`

/** The PHP samples' cURL call of $method $path with $body and $headers; leaves $response and $status. */
export const PHP_CURL_CALL = `    $ch = curl_init(PERFIL_SEGURO_API . $path);
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
    curl_close($ch);`

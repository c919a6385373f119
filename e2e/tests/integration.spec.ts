import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromiumArgs, chromiumPath } from '../chromium';
import { expect, test, type Page } from '@playwright/test';
import { codeFor } from './helpers';

// Issue 8 (web part): the /integration documentation, and its samples run as printed against
// the running server: the JavaScript sample in Chromium from a second, authorized origin, and the
// PHP sample with php-cli where it is installed.

const screenshotDir = path.resolve(__dirname, '..', 'screenshots');
// The server of playwright.config.ts (E2E_PORT and E2E_DATABASE override its port and database).
const port = Number(process.env.E2E_PORT ?? 8089);
const apiBase = `http://127.0.0.1:${port}`; // the server, as the docs print it when opened there
const partnerOrigin = `http://localhost:${port}`; // same server, another origin: the partner's site
const strangerOrigin = `http://desconocido.test:${port}`; // also this server (see below), never a partner
// The partner's keys, registered with their SHA-256 as the server stores them (partner_keys).
const partnerKey = 'pk_live_00000000000000000000e2e1';
const secretKey = 'sk_test_0000000000000000000000000000000000000000000e2e01';
const secretLiveKey = 'sk_live_0000000000000000000000000000000000000000000e2e01';
const e2eDatabase = `postgres://postgres@127.0.0.1:5432/${process.env.E2E_DATABASE ?? 'perfilseguro_e2e'}?sslmode=disable`;

// The second and third origins are pages of this same server, so they are real loopback pages
// (Chromium's local-network checks refuse calls from pages it cannot place). Their own CSP
// (connect-src 'self') would stop the cross-origin calls a partner's page makes, so it is bypassed:
// a partner's site has its own policy, not ours. desconocido.test resolves to 127.0.0.1.
test.use({
  bypassCSP: true,
  launchOptions: {
    executablePath: chromiumPath,
    args: [
      ...chromiumArgs,
      '--host-resolver-rules=MAP desconocido.test 127.0.0.1',
    ],
  },
});

/** registerPartner makes partnerOrigin an active partner with widget_auth, straight in the e2e database. */
function registerPartner() {
  execFileSync(
    'psql',
    [
      e2eDatabase,
      '-X',
      '-q',
      '-v',
      'ON_ERROR_STOP=1',
      '-c',
      `WITH p AS (INSERT INTO api_keys (key_id, partner_name, domain) VALUES ('${partnerKey}', 'Socio E2E', '${partnerOrigin}')
         ON CONFLICT (key_id) DO UPDATE SET domain = EXCLUDED.domain, is_active = true, permissions = ARRAY['widget_auth'] RETURNING id)
       INSERT INTO partner_keys (partner_id, kind, livemode, token_hash, hint)
       SELECT p.id, k.kind, k.live, encode(sha256(convert_to(k.key, 'UTF8')), 'hex'), k.key
       FROM p, (VALUES ('${partnerKey}', 'publishable', true), ('${secretKey}', 'secret', false), ('${secretLiveKey}', 'secret', true)) AS k(key, kind, live)
       ON CONFLICT (token_hash) DO UPDATE SET revoked_at = NULL`,
    ],
    { stdio: 'pipe' },
  );
}

/** grant records, straight in the e2e database, that the owner of email shared claims with the partner (live). */
function grant(email: string, claims: string[]) {
  execFileSync('psql', [e2eDatabase, '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c',
    `INSERT INTO partner_grants (partner_id, user_id, livemode, claims, via)
     SELECT a.id, u.id, true, ARRAY[${claims.map((c) => `'${c}'`).join(',')}], 'session' FROM api_keys a, users u
     WHERE a.key_id = '${partnerKey}' AND u.email = '${email}'`], { stdio: 'pipe' });
}

function newContact() {
  const digits = String(Math.floor(Math.random() * 90_000_000) + 10_000_000);
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
  return { email: `socio.${tag}@example.com`, phone: `+5255${digits}` };
}

/** sampleText reads a printed sample from the 'Ejemplos' tab of the docs at apiBase. */
async function sampleText(page: Page, language: 'javascript' | 'php' | 'node-sesion' | 'php-sesion' | 'go' | 'html'): Promise<string> {
  await page.goto(`${apiBase}/integration`);
  await page.getByRole('tab', { name: 'Ejemplos' }).click();
  const text = await page.locator(`figure[data-language="${language}"] pre code`).textContent();
  expect(text).toBeTruthy();
  return text!;
}

/** openSite opens this server's home page under another origin (a partner's site, or a stranger's). */
async function openSite(page: Page, origin: string) {
  await page.goto(`${origin}/`);
  await expect(page.getByRole('banner')).toBeVisible();
}

/** loadSample evaluates the JavaScript sample in the page and keeps its two functions on window. */
async function loadSample(page: Page, source: string) {
  await page.evaluate((src) => {
    const api = new Function(`${src}\nreturn { loginUser, verifyCode };`)();
    (window as unknown as { perfilSeguro: unknown }).perfilSeguro = api;
  }, source);
}

/** seriousIssues are axe-core's serious and critical findings on the page as it is now (a11y.spec.ts sees only the first tab). */
async function seriousIssues(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

type SampleAPI = {
  loginUser(input: { email?: string; phoneNumber?: string }): Promise<Record<string, unknown>>;
  verifyCode(userId: unknown, code: string): Promise<Record<string, unknown>>;
};

test('the page shows the hero and its four tabs, and no developer banner', async ({ page }) => {
  await page.goto('/integration');
  await expect(page.getByRole('heading', { level: 1, name: 'Widget de Validación Universal' })).toBeVisible();
  await expect(page.getByRole('tab')).toHaveText(['Resumen', 'Endpoints', 'Ejemplos', 'Guía']);
  await expect(page.getByTestId('developer-banner')).toHaveCount(0);

  const panel = page.getByRole('tabpanel');
  await expect(panel.getByText('Verificación SMS automática')).toBeVisible();
  await expect(panel.getByRole('heading', { name: 'CasaLista' })).toBeVisible();
  await expect(panel.getByRole('heading', { name: 'Tu plataforma' })).toBeVisible();
  await expect(panel.getByRole('alert')).toContainText('solo aceptan solicitudes de dominios autorizados');
  await page.screenshot({ path: path.join(screenshotDir, 'integration-resumen.png'), fullPage: true });

  await page.getByRole('tab', { name: 'Endpoints' }).click();
  for (const p of ['/api/partner/v1/verification-sessions', '/api/partner/v1/verification-sessions/{id}',
    '/api/widget/login', '/api/widget/verify-code', '/api/widget/verify?email={email}']) {
    await expect(panel.getByRole('heading', { name: p, exact: true })).toBeVisible();
  }
  await expect(panel).toContainText(`URL base: ${apiBase}`);
  expect(await seriousIssues(page)).toEqual([]);
  await page.screenshot({ path: path.join(screenshotDir, 'integration-endpoints.png'), fullPage: true });

  await page.getByRole('tab', { name: 'Ejemplos' }).click();
  // JavaScript, React, PHP, then the wallet presentation: Node.js request, webhook and React widget.
  await expect(panel.getByRole('figure')).toHaveCount(10);
  await expect(panel.getByRole('button', { name: /^Copiar / })).toHaveCount(10);
  expect(await seriousIssues(page)).toEqual([]);
  await page.screenshot({ path: path.join(screenshotDir, 'integration-ejemplos.png'), fullPage: true });

  await page.getByRole('tab', { name: 'Guía' }).click();
  for (const step of ['Tus llaves, en la consola de socios', 'Una sesión desde tu servidor', 'El widget en tu página',
    'El resultado, en tu servidor y en tu webhook', 'Prueba sin datos reales']) {
    await expect(panel.getByRole('heading', { name: step })).toBeVisible();
  }
  await expect(panel.getByRole('link', { name: 'Contactar al equipo técnico' })).toHaveAttribute('href', /^mailto:soporte@perfilseguro\.mx/);
  expect(await seriousIssues(page)).toEqual([]);
  await page.screenshot({ path: path.join(screenshotDir, 'integration-guia.png'), fullPage: true });

  // The banner is there on other pages and leads here.
  await page.goto('/');
  await expect(page.getByTestId('developer-banner')).toBeVisible();
  await page.getByTestId('developer-banner').getByRole('link', { name: 'Ver documentación de integración' }).click();
  await expect(page).toHaveURL(/\/integration$/);
  await expect(page.getByTestId('developer-banner')).toHaveCount(0);
});

test('the copy button copies the sample and shows its check for 2 seconds', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: apiBase });
  await page.clock.install();
  await page.goto('/integration');
  await page.getByRole('tab', { name: 'Ejemplos' }).click();
  const shown = await page.locator('figure[data-language="php"] pre code').textContent();
  // Stop the page's clock so only runFor moves it.
  await page.clock.pauseAt(new Date(Date.now() + 60_000));

  await page.getByRole('button', { name: 'Copiar PHP' }).click();
  const copied = page.getByRole('button', { name: 'PHP copiado' });
  await expect(copied).toBeVisible();
  await expect(copied.getByTestId('copy-check')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);

  await page.clock.runFor(1_900);
  await expect(copied).toBeVisible();
  await page.clock.runFor(200);
  await expect(page.getByRole('button', { name: 'Copiar PHP' })).toBeVisible();
  await expect(page.getByTestId('copy-check')).toHaveCount(0);
});

test('the legacy JavaScript sample works as printed from the registered origin with the publishable key: login, code, verify', async ({ page, request }) => {
  registerPartner();
  const printed = await sampleText(page, 'javascript');
  expect(printed).toContain(`const API_BASE = '${apiBase}';`);
  expect(printed).not.toContain('/api/widget/verify?'); // the status lookup is for servers only
  const source = printed.replace("'pk_tu_llave_de_socio'", `'${partnerKey}'`);

  await openSite(page, partnerOrigin);
  await loadSample(page, source);
  const { email, phone } = newContact();

  const login = await page.evaluate(
    ([e, p]) => (window as unknown as { perfilSeguro: SampleAPI }).perfilSeguro.loginUser({ email: e, phoneNumber: p }),
    [email, phone],
  );
  expect(login).toMatchObject({
    success: true,
    codeRequested: true,
    verified: false,
    isNewUser: true,
    nextStep: 'verify_code',
    userId: expect.any(Number),
  });

  const code = await codeFor(request, phone);
  const wrong = `${(Number(code[0]) + 1) % 10}${code.slice(1)}`;
  const refused = await page.evaluate(
    ([id, c]) =>
      (window as unknown as { perfilSeguro: SampleAPI }).perfilSeguro.verifyCode(id, c as string).then(
        () => 'accepted',
        (err: Error) => err.message,
      ),
    [login.userId, wrong],
  );
  expect(refused).toBe('Código de verificación incorrecto');

  const verified = await page.evaluate(
    ([id, c]) => (window as unknown as { perfilSeguro: SampleAPI }).perfilSeguro.verifyCode(id, c as string),
    [login.userId, code],
  );
  expect(verified).toMatchObject({
    success: true,
    verified: true,
    userId: login.userId,
    profileId: expect.stringMatching(/^PS-\d{4}-\d{4}-\d{2}$/),
    data: { userId: login.userId, verified: true, verification_level: 1, verificationType: 'phone', nextStep: 'biometric_verification' },
  });
});

test('a call on the origin alone is refused with the deprecation headers the page prints, and their link opens that section', async ({ page, request }) => {
  registerPartner();
  const { email } = newContact();
  const res = await request.post('/api/widget/login', { data: { email }, headers: { Origin: partnerOrigin } });
  expect(res.status()).toBe(401);
  const headers = res.headers();
  expect(headers['deprecation']).toBe('@1767225600');
  expect(headers['sunset']).toBe('Wed, 31 Mar 2027 00:00:00 GMT');
  expect(headers['link']).toBe('</integration#llamadas-heredadas>; rel="deprecation"');

  // The Link, followed from the server's own origin, lands on the legacy section, which names the same headers.
  const target = new URL(headers['link'].slice(1, headers['link'].indexOf('>')), apiBase).toString();
  await page.goto(target);
  await expect(page.getByRole('tab', { name: 'Endpoints' })).toHaveAttribute('aria-selected', 'true');
  const section = page.locator('#llamadas-heredadas');
  await expect(section.getByRole('heading', { level: 2 })).toHaveText('Llamadas heredadas (widget de la primera versión)');
  await expect(section.getByRole('heading', { level: 2 })).toBeInViewport();
  for (const name of ['deprecation', 'sunset', 'link']) {
    await expect(section).toContainText(`${name[0].toUpperCase()}${name.slice(1)}: ${headers[name]}`);
  }
  // And the guide's link leads there too.
  await page.getByRole('tab', { name: 'Guía' }).click();
  await page.getByRole('link', { name: 'Ver las llamadas heredadas' }).click();
  await expect(section.getByRole('heading', { level: 2 })).toBeInViewport();
});

test('an origin that is not a partner is refused, with no CORS grant', async ({ page, request }) => {
  const source = await sampleText(page, 'javascript');
  await openSite(page, strangerOrigin);
  await loadSample(page, source);
  const corsErrors: string[] = [];
  page.on('console', (m) => {
    if (m.text().includes('blocked by CORS policy')) corsErrors.push(m.text());
  });
  const outcome = await page.evaluate(() =>
    (window as unknown as { perfilSeguro: SampleAPI }).perfilSeguro.loginUser({ email: 'nadie@example.com' }).then(
      () => 'accepted',
      (err: Error) => `${err.name}: ${err.message}`,
    ),
  );
  expect(outcome).toBe('TypeError: Failed to fetch'); // the browser never lets the page read the answer
  await expect.poll(() => corsErrors.join('\n')).toContain("No 'Access-Control-Allow-Origin' header");

  const res = await request.post('/api/widget/login', {
    data: { email: 'nadie@example.com' },
    headers: { Origin: strangerOrigin },
  });
  expect(res.status()).toBe(403);
  expect(res.headers()['access-control-allow-origin']).toBeUndefined();
  expect(((await res.json()) as { message: string }).message).toContain('Origen no autorizado');

  // The partner's preflight, by contrast, is granted with credentials.
  registerPartner();
  const preflight = await request.fetch('/api/widget/login', {
    method: 'OPTIONS',
    headers: { Origin: partnerOrigin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
  });
  expect(preflight.status()).toBe(204);
  expect(preflight.headers()['access-control-allow-origin']).toBe(partnerOrigin);
  expect(preflight.headers()['access-control-allow-credentials']).toBe('true');
});

function phpAvailable(): boolean {
  try {
    execFileSync('php', ['-r', 'exit(function_exists("curl_init") ? 0 : 1);'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

test('the legacy PHP sample works as printed with the partner keys, and answers false on any non-200', async ({ page, request }) => {
  test.skip(!phpAvailable(), 'php-cli with cURL is not installed (scripts/ensure-tools.sh --test installs it)');
  registerPartner();
  const source = await sampleText(page, 'php');
  expect(source).toContain(`const PERFIL_SEGURO_API = '${apiBase}';`);

  // The sample as printed, with the partner's key filled in, plus a tiny command-line driver.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'perfilseguro-php-'));
  const script = path.join(dir, 'sample.php');
  const driver = `
$args = array_slice($argv, 1);
switch (array_shift($args)) {
    case 'login': $result = loginUser($args[0] ?: null, $args[1] ?: null); break;
    case 'verify': $result = verifyCode((int) $args[0], $args[1]); break;
    default: $result = checkVerificationStatus($args[0]);
}
echo json_encode($result);
`;
  let secret = secretLiveKey;
  const php = (key: string, ...args: string[]) => {
    writeFileSync(script, source.replace("'pk_tu_llave_de_socio'", `'${key}'`).replace("'sk_tu_llave_secreta'", `'${secret}'`) + driver);
    return JSON.parse(execFileSync('php', [script, ...args], { encoding: 'utf8', timeout: 20_000 }));
  };

  try {
    // An existing account (registered in the app): login answers 200.
    const { email, phone } = newContact();
    const reg = await request.post('/api/register', { data: { fullName: 'Cliente PHP', email, phoneNumber: phone } });
    expect(reg.status()).toBe(201);
    const { sessionToken } = (await reg.json()) as { sessionToken: string };
    const first = await codeFor(request, phone);
    expect((await request.post('/api/verify-code', { data: { sessionToken, code: first } })).status()).toBe(200);

    const login = php(partnerKey, 'login', email, phone);
    expect(login).toMatchObject({ success: true, codeRequested: true, isNewUser: false, nextStep: 'verify_code', userId: expect.any(Number) });

    const code = await codeFor(request, phone, [first]);
    expect(php(partnerKey, 'verify', String(login.userId), `${(Number(code[0]) + 1) % 10}${code.slice(1)}`)).toBe(false);
    expect(php(partnerKey, 'verify', String(login.userId), code)).toMatchObject({
      success: true,
      verified: true,
      data: { verification_level: 1, verificationType: 'phone', nextStep: 'biometric_verification' },
    });
    // The secret key reads nobody who did not share with the partner; after sharing, the name.
    expect(php(partnerKey, 'status', email)).toMatchObject({ valid: false, name: '', profileId: '' });
    grant(email, ['name']);
    expect(php(partnerKey, 'status', email)).toMatchObject({ valid: true, verified: false, name: 'Cliente PHP', profileId: '', vigencia: null });

    // A key that is not a partner's: the server refuses and the sample answers false.
    secret = 'sk_live_000000000000000000000000000000000000000000000000';
    expect(php(partnerKey, 'status', email)).toBe(false);
    expect(php('pk_live_00000000000000000000dead', 'login', newContact().email, '')).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the drop-in page and the session samples in Node, PHP and Go work as printed with a test secret key', async ({ page }) => {
  test.setTimeout(150_000);
  registerPartner();
  const html = await sampleText(page, 'html');
  const tag = html.match(/<script src="([^"]+)"\s+integrity="([^"]+)"\s+crossorigin="anonymous"><\/script>/);
  expect(tag, html).not.toBeNull();
  const [, src, integrity] = tag!;
  expect(src).toBe(`${apiBase}/widget/v1.js`);
  expect(html).not.toMatch(/sk_(live|test)_/);
  const loader = await page.request.get(src);
  expect(loader.status()).toBe(200);
  expect(loader.headers()['access-control-allow-origin']).toBe('*');
  // The printed hash is that of the file served, and a partner's page runs the script with it.
  expect(integrity).toBe(`sha384-${createHash('sha384').update(await loader.body()).digest('base64')}`);
  await page.goto(`${apiBase}/integration`);
  await page.getByRole('tab', { name: 'Guía' }).click();
  await expect(page.locator('figure[data-language="html-guia"] pre code')).toContainText(`integrity="${integrity}"`);
  await openSite(page, partnerOrigin);
  const loaded = await page.evaluate(
    ([s, i]) =>
      new Promise<string>((resolve) => {
        const script = document.createElement('script');
        script.src = s;
        script.integrity = i;
        script.crossOrigin = 'anonymous';
        script.onload = () => resolve(typeof (window as unknown as { PerfilSeguro?: unknown }).PerfilSeguro);
        script.onerror = () => resolve('refused');
        document.head.appendChild(script);
      }),
    [src, integrity],
  );
  expect(loaded).toBe('function');

  const dir = mkdtempSync(path.join(os.tmpdir(), 'perfilseguro-sesion-'));
  const runners: Record<string, { file: string; cmd: (file: string) => [string, string[]] }> = {
    'node-sesion': { file: 'sesion.mjs', cmd: (f) => ['node', [f]] },
    go: { file: 'sesion.go', cmd: (f) => ['go', ['run', f]] },
    ...(phpAvailable() ? { 'php-sesion': { file: 'sesion.php', cmd: (f: string) => ['php', [f]] as [string, string[]] } } : {}),
  };
  try {
    for (const [language, runner] of Object.entries(runners)) {
      const source = await sampleText(page, language as 'go');
      expect(source).toContain(apiBase);
      const file = path.join(dir, runner.file);
      const run = (key: string, ...args: string[]) => {
        writeFileSync(file, source.replace('sk_test_tu_llave_secreta', key));
        const [bin, pre] = runner.cmd(file);
        try {
          return { ok: true, out: execFileSync(bin, [...pre, ...args], { encoding: 'utf8', timeout: 90_000, cwd: dir, env: { ...process.env, PERFIL_SEGURO_SECRET_KEY: '' } }) };
        } catch (err) {
          return { ok: false, out: String((err as { stderr?: string }).stderr ?? err) };
        }
      };
      // The level is the caller's: 2 and 3 as asked, anything else refused with the server's message.
      for (const level of [2, 3]) {
        const created = run(secretKey, 'crear', `ref-${language}-${level}`, String(level));
        expect(created.ok, `${language}: ${created.out}`).toBe(true);
        const session = JSON.parse(created.out) as { id: string; clientSecret: string; livemode: boolean };
        expect(session).toMatchObject({ id: expect.stringMatching(/^vs_[0-9a-f]{24}$/), livemode: false });
        expect(session.clientSecret.startsWith(`${session.id}_secret_`)).toBe(true);
        const read = run(secretKey, 'consultar', session.id);
        expect(JSON.parse(read.out)).toMatchObject({
          id: session.id, status: 'created', reference: `ref-${language}-${level}`, requiredLevel: level, claims: ['name', 'validUntil'],
        });
      }
      const badLevel = run(secretKey, 'crear', `ref-${language}-5`, '5');
      if (language === 'php-sesion') expect(badLevel.out.trim()).toBe('false');
      else {
        expect(badLevel.ok).toBe(false);
        expect(badLevel.out).toContain('El nivel requerido debe ser 2 (correo) o 3 (biométrico).');
      }
      // A key nobody issued: refused (Node and Go exit with the server's Spanish message; PHP answers false).
      const refused = run('sk_test_000000000000000000000000000000000000000000000000', 'crear', 'x', '3');
      if (language === 'php-sesion') expect(refused.out.trim()).toBe('false');
      else {
        expect(refused.ok).toBe(false);
        expect(refused.out).toContain('Llave secreta no válida');
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

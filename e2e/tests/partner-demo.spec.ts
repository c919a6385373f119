import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { chromiumArgs, chromiumPath } from '../chromium';
import { expect, test, type Page } from '@playwright/test';
import { codeFor, completeLevels2And3, newPerson, submitRegistration, type Person } from './helpers';

// Issue 36: the demo partner "CasaLista (demo)" (examples/casalista, built by `make test` as
// bin/casalista) on a second origin uses the drop-in with a test key against this suite's server.
// Chromium blocks third-party cookies here: the hosted flow is a top-level page of ours (popup or
// redirect), so it needs none.

const port = Number(process.env.E2E_PORT ?? 8089);
const api = `http://127.0.0.1:${port}`;
const demoPort = Number(process.env.E2E_DEMO_PORT ?? port + 10); // clear of the second servers (port + 1…4)
const demo = `http://127.0.0.1:${demoPort}`;
const database = `postgres://postgres@127.0.0.1:5432/${process.env.E2E_DATABASE ?? 'perfilseguro_e2e'}?sslmode=disable`;
const root = path.resolve(__dirname, '..', '..');
const screenshots = path.resolve(__dirname, '..', 'screenshots');

test.use({
  launchOptions: {
    executablePath: chromiumPath,
    args: [
      ...chromiumArgs,
      '--test-third-party-cookie-phaseout', // third-party cookies blocked
    ],
  },
});
test.describe.configure({ mode: 'serial' });

let server: ChildProcess | undefined;
let secretKey = ''; // the demo partner's test secret key

test.beforeAll(async () => {
  const cli = (...args: string[]) =>
    execFileSync(path.join(root, 'bin', 'perfilseguro'), ['partner', ...args],
      { env: { ...process.env, DATABASE_URL: database, APP_ENV: 'test' }, encoding: 'utf8' });
  // A retry runs this again: an origin belongs to one active partner, so the earlier run's demo
  // partner is switched off first, as an operator would before registering it anew.
  for (const line of cli('list').split('\n').slice(1)) {
    const [id, , , domain, active] = line.split(/\s{2,}/);
    if (domain === demo && active === 'true') cli('disable', id);
  }
  // The partner, made the way an operator makes one: its keys and webhook secret printed once.
  const out = cli('add', '-name', 'CasaLista (demo)', '-domain', demo, '-webhook', `${demo}/webhooks/perfilseguro`);
  const pk = /publishable keys[^\n]*\n {2}live \S+\n {2}test (pk_test_[0-9a-f]+)/.exec(out)?.[1];
  const sk = /secret keys[^\n]*\n {2}live \S+\n {2}test (sk_test_[0-9a-f]+)/.exec(out)?.[1];
  const whsec = /(whsec_[0-9a-f]+)/.exec(out)?.[1];
  expect(pk && sk && whsec, out).toBeTruthy();
  secretKey = sk!;
  server = spawn(path.join(root, 'bin', 'casalista'), [], {
    env: { ...process.env, PERFILSEGURO_URL: api, CASALISTA_ADDR: `127.0.0.1:${demoPort}`,
      CASALISTA_PUBLISHABLE_KEY: pk!, CASALISTA_SECRET_KEY: sk!, CASALISTA_WEBHOOK_SECRET: whsec! },
    stdio: 'inherit',
  });
  await expect.poll(async () => (await fetch(`${demo}/`).catch(() => null))?.status, { timeout: 15_000 }).toBe(200);
});

test.afterAll(() => {
  server?.kill();
});

type DemoEvent = { event: string; body: Record<string, unknown> };
async function demoEvents(): Promise<DemoEvent[]> {
  return (await (await fetch(`${demo}/api/eventos`)).json()) as DemoEvent[];
}

/** openFlow clicks the partner's button and returns our hosted flow's popup. */
async function openFlow(page: Page): Promise<Page> {
  await page.goto(demo);
  const opened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Validar con Perfil Seguro' }).click();
  const popup = await opened;
  await popup.waitForURL(/\/conectar/);
  await expect(popup.getByRole('heading', { name: 'Verificación para CasaLista (demo)' })).toBeVisible();
  return popup;
}

const person: Person = newPerson('Lucía Demo Pérez', 'demo');

test('a new person registers, completes level 3 in the popup and shares; the partner gets completed, the claims and a verified webhook', async ({ page }) => {
  test.setTimeout(120_000);
  const popup = await openFlow(page);
  await expect(popup.getByText('Modo de prueba')).toBeVisible();
  await expect(popup.getByText(`(${demo})`, { exact: false })).toBeVisible();
  await expect(popup.getByText('Tu nombre completo')).toBeVisible();
  await expect(popup.getByText('La vigencia de tu validación')).toBeVisible();
  await expect(popup.getByRole('button', { name: 'Compartir', exact: true })).toBeDisabled();

  // Registration, then back to the flow.
  await popup.getByRole('main').getByRole('link', { name: 'Registrarse' }).click();
  await submitRegistration(popup, person);
  await popup.waitForURL(/\/conectar$/, { timeout: 10_000 });
  await expect(popup.getByText('Primero verifica tu correo electrónico desde Mi Perfil.')).toBeVisible();

  // Level 2 and 3 on Mi Perfil, in the same popup.
  await popup.getByRole('link', { name: 'Ir a Mi Perfil' }).click();
  await completeLevels2And3(popup, person);
  // A test key's person is the partner's test person: told so, and with no public page.
  await expect(popup.getByTestId('test-account')).toContainText('no es tu perfil real');
  await popup.screenshot({ path: path.join(screenshots, 'partner-demo-test-account.png'), fullPage: true });
  const profileId = (await popup.getByText(/PS-\d{4}-\d{4}-\d{2}/).first().textContent())!.match(/PS-\d{4}-\d{4}-\d{2}/)![0];
  expect((await popup.request.get(`${api}/api/verify/${profileId}`)).status()).toBe(404);

  // Back to the flow: exactly the claims, with the person's values; share.
  await popup.getByTestId('hosted-flow-return').getByRole('link', { name: 'Volver a la verificación' }).click();
  await expect(popup.getByText(`Tu nombre completo: ${person.name}`)).toBeVisible();
  await popup.screenshot({ path: path.join(screenshots, 'partner-demo-share.png') });
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Compartir', exact: true }).click();
  await closed;

  // The partner's page: completed, read server-side with the secret key, with the shared claims.
  await expect(page.getByRole('status')).toHaveAttribute('data-status', 'completed', { timeout: 15_000 });
  await expect(page.locator('dd[data-claim="name"]')).toHaveText(person.name);
  await expect(page.locator('dd[data-claim="validUntil"]')).not.toBeEmpty();
  await page.screenshot({ path: path.join(screenshots, 'partner-demo-completed.png') });

  // Its server received the webhook and verified its signature (a bad one is answered 401).
  await expect.poll(async () => (await demoEvents()).map((e) => e.event), { timeout: 20_000 }).toContain('verification_session.completed');
  const completed = (await demoEvents()).find((e) => e.event === 'verification_session.completed')!;
  expect(completed.body).toMatchObject({ status: 'completed', livemode: false, claims: { name: person.name } });
  expect(typeof completed.body.proof).toBe('string');
  const forged = await fetch(`${demo}/webhooks/perfilseguro`, {
    method: 'POST',
    headers: { 'X-PerfilSeguro-Signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` },
    body: '{}',
  });
  expect(forged.status).toBe(401);
});

test('a second person declines: the partner gets declined and no data', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const popup = await openFlow(page);
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'No compartir' }).click();
  await expect(popup.getByText('No compartiste nada.')).toBeVisible();
  await closed;
  await expect(page.getByRole('status')).toHaveAttribute('data-status', 'declined', { timeout: 15_000 });
  await expect(page.locator('dd[data-claim]')).toHaveCount(0);
  await expect.poll(async () => (await demoEvents()).map((e) => e.event), { timeout: 20_000 }).toContain('verification_session.declined');
  const declined = (await demoEvents()).find((e) => e.event === 'verification_session.declined')!;
  expect(declined.body).not.toHaveProperty('claims');
  await context.close();
});

test('on a phone the flow is a full-page redirect and returns to the partner', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(demo);
  await page.getByRole('button', { name: 'Validar con Perfil Seguro' }).click();
  await page.waitForURL(new RegExp(`^${api}/conectar`));
  await expect(page.getByRole('heading', { name: 'Verificación para CasaLista (demo)' })).toBeVisible();
  expect(page.url()).not.toContain('_secret_'); // the client secret leaves the address bar at once

  // The person from the first test signs in with a code and shares again.
  await page.getByRole('main').getByRole('link', { name: 'Iniciar Sesión' }).click();
  await page.getByLabel('Correo electrónico (opcional)').fill(person.email);
  // The codes of the first test are in the inbox too: wait for the one this sign-in sends.
  const earlier = ((await (await page.request.get(`/dev/inbox.json?to=${encodeURIComponent(person.email)}`)).json()) as
    { text: string }[] | null ?? []).map((m) => /(?<!\d)(\d{6})(?!\d)/.exec(m.text)?.[1] ?? '');
  await page.getByRole('button', { name: 'Enviar código' }).click();
  const code = await codeFor(page.request, person.email, earlier);
  await page.getByLabel('Código de verificación').fill(code);
  await page.getByRole('button', { name: 'Verificar Código' }).click();
  await page.waitForURL(/\/conectar$/, { timeout: 10_000 });
  await page.getByRole('button', { name: 'Compartir', exact: true }).click();
  await page.waitForURL(new RegExp(`^${demo}/\\?perfilseguro_session=vs_[0-9a-f]{24}&perfilseguro_status=completed$`), { timeout: 10_000 });
  await expect(page.getByRole('status')).toHaveAttribute('data-status', 'completed', { timeout: 15_000 });
  await expect(page.locator('dd[data-claim="name"]')).toHaveText(person.name);
  await page.screenshot({ path: path.join(screenshots, 'partner-demo-phone.png') });
  await context.close();
});

// Issue 54, items 10 and 11: the url a new session returns opened nothing ("Llave publicable no
// válida"). Opened exactly as returned (a redirect or a link: no referrer, no opener), it is the
// redirect variant; the opener cannot be confirmed, so the platform's name and domain are shown
// with a warning before "Compartir". The page is a focused flow: none of the site's navigation.
test("the session's url opens the hosted flow as returned, and warns when the opener is unknown", async ({ browser }) => {
  const created = (await (
    await fetch(`${api}/api/partner/v1/verification-sessions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${secretKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ reference: 'enlace-1', requiredLevel: 3, claims: ['name'], returnUrl: `${demo}/` }),
    })
  ).json()) as { id: string; url: string };
  expect(created.url).toMatch(new RegExp(`^${api}/conectar\\?mode=redirect&pk=pk_test_[0-9a-f]+#${created.id}_secret_`));

  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(created.url);
  await expect(page.getByRole('heading', { name: 'Verificación para CasaLista (demo)' })).toBeVisible();
  expect(page.url()).not.toContain('_secret_');
  const warning = page.getByRole('alert').filter({ hasText: 'Comprueba quién te pide tus datos' });
  await expect(warning).toContainText('CasaLista (demo)');
  await expect(warning).toContainText(new URL(demo).host);
  // Focused: no site navigation or developer banner; the step and its buttons on the first screen.
  await expect(page.getByRole('navigation')).toHaveCount(0);
  await expect(page.getByTestId('developer-banner')).toHaveCount(0);
  await expect(page.getByRole('link', { name: /Aviso de privacidad/ }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'No compartir' })).toBeInViewport();
  await page.screenshot({ path: path.join(screenshots, 'hosted-flow-url-375.png') });
  await page.screenshot({ path: path.join(screenshots, 'hosted-flow-url-375-full.png'), fullPage: true });

  // Declining sends the person back to the partner's returnUrl.
  await page.getByRole('button', { name: 'No compartir' }).click();
  await page.waitForURL(new RegExp(`^${demo}/\\?perfilseguro_session=${created.id}&perfilseguro_status=declined$`), { timeout: 10_000 });
  await context.close();
});

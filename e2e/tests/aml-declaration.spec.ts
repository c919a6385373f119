import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { codeFor, newPerson, registerInUI, waitForMessage } from './helpers';

// Issue 53 item 2: a session with amlProfile asks the person, after the identity steps, for the
// know-your-client declaration; they answer, sign it with the code from the development inbox
// and see it in "Compartir con {partner}"; later they correct it in Mi Perfil (version 2, shared
// with the business).

const port = Number(process.env.E2E_PORT ?? 8089);
const api = `http://127.0.0.1:${port}`;
const database = `postgres://postgres@127.0.0.1:5432/${process.env.E2E_DATABASE ?? 'perfilseguro_e2e'}?sslmode=disable`;
const root = path.resolve(__dirname, '..', '..');
const screenshots = path.resolve(__dirname, '..', 'screenshots');
// The business's origin: nothing listens there; the flow opens from the session's url.
const businessOrigin = `http://127.0.0.1:${port + 30}`;

let secretKey = ''; // the business's live secret key

test.beforeAll(() => {
  const cli = (...args: string[]) =>
    execFileSync(path.join(root, 'bin', 'perfilseguro'), ['partner', ...args],
      { env: { ...process.env, DATABASE_URL: database, APP_ENV: 'test' }, encoding: 'utf8' });
  for (const line of cli('list').split('\n').slice(1)) {
    const [id, , , domain, active] = line.split(/\s{2,}/);
    if (domain === businessOrigin && active === 'true') cli('disable', id);
  }
  const out = cli('add', '-name', 'Inmobiliaria Roble', '-domain', businessOrigin);
  const sk = /secret keys[^\n]*\n {2}live (sk_live_[0-9a-f]+)/.exec(out)?.[1];
  expect(sk, out).toBeTruthy();
  secretKey = sk!;
});

async function partner(method: 'GET' | 'POST', pathname: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${api}${pathname}`, {
    method,
    headers: { Authorization: `Bearer ${secretKey}`, 'Content-Type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(res.ok, `${method} ${pathname}: ${res.status}`).toBe(true);
  return (await res.json()) as Record<string, unknown>;
}

/** The 6-digit codes already delivered to `to`, so that a new one is told apart. */
async function inboxCodes(request: APIRequestContext, to: string): Promise<string[]> {
  const res = await request.get(`/dev/inbox.json?to=${encodeURIComponent(to)}`);
  const messages = ((await res.json()) as { text: string }[] | null) ?? [];
  return messages.flatMap((m) => /(?<!\d)(\d{6})(?!\d)/.exec(m.text)?.[1] ?? []);
}

/** Reviews the filled form and signs the text with the code the inbox receives. */
async function reviewAndSign(page: Page, to: string): Promise<void> {
  await page.getByRole('button', { name: 'Revisar mi declaración' }).click();
  await expect(page.getByTestId('aml-text')).toContainText('declaro bajo protesta de decir verdad');
  const before = await inboxCodes(page.request, to);
  await page.getByRole('button', { name: 'Firmar con un código' }).click();
  const code = await codeFor(page.request, to, before);
  await page.getByLabel('Código para firmar').fill(code);
  await page.getByRole('button', { name: 'Firmar declaración' }).click();
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: path.join(screenshots, `${name}-1280.png`), fullPage: true });
  await page.setViewportSize({ width: 375, height: 812 });
  await page.screenshot({ path: path.join(screenshots, `${name}-375.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('a person answers and signs the declaration in the hosted flow, shares it, and corrects it in Mi Perfil', async ({ page }) => {
  test.setTimeout(120_000);
  const p = newPerson('Elena Gómez Díaz', 'amldecl');
  await registerInUI(page, p);
  await page.getByTestId('email-verification-card').getByRole('button', { name: 'Enviar enlace de verificación' }).click();
  const [link] = await waitForMessage(page.request, p.email, /https?:\/\/\S+\/api\/verify-email\?token=[0-9a-f]{64}/);
  await page.goto(link);
  await expect(page.getByText('Nivel 2 Completado')).toBeVisible();

  const created = await partner('POST', '/api/partner/v1/verification-sessions',
    { reference: 'casa-roble-7', requiredLevel: 2, claims: ['name'], amlProfile: true });
  await page.goto(created.url as string);
  await expect(page.getByRole('heading', { name: 'Verificación para Inmobiliaria Roble' })).toBeVisible();
  const share = page.getByRole('button', { name: 'Compartir', exact: true });
  await expect(share).toBeDisabled();

  // The questions, in plain Spanish.
  await page.getByLabel('¿A qué te dedicas? (ocupación o actividad económica)').fill('Contadora independiente');
  await page.getByLabel('Tu domicilio').fill('Av. Reforma 100, Col. Juárez, Cuauhtémoc, CDMX');
  await page.getByLabel('Tu RFC').fill('GODE561231GR8');
  await page.getByLabel('Nacionalidad').selectOption('MEX');
  await page.getByRole('radio', { name: 'Actúo por cuenta de otra persona' }).check();
  await expect(page.getByTestId('aml-beneficiary')).toBeVisible();
  await page.getByRole('radio', { name: 'Actúo por mi cuenta' }).check();
  await shoot(page, 'aml-declaration-form');

  await reviewAndSign(page, p.e164);
  const item = page.locator('[data-claim="amlDeclaration"]');
  await expect(item).toContainText('versión 1, firmada');
  await expect(share).toBeEnabled();
  await shoot(page, 'aml-declaration-compartir');
  await share.click();
  await expect(page.getByText('Listo: compartiste tus datos.')).toBeVisible();

  const read = await partner('GET', `/api/partner/v1/verification-sessions/${created.id as string}`);
  const declaration = read.amlDeclaration as { version: number; method: string; textSha256: string; answers: { occupation: string } };
  expect(declaration.version).toBe(1);
  expect(declaration.method).toBe('codigo');
  expect(declaration.textSha256).toMatch(/^[0-9a-f]{64}$/);
  expect(declaration.answers.occupation).toBe('Contadora independiente');

  // Mi Perfil: the declaration, and a correction (version 2, shared with the business).
  await page.goto('/profile');
  const section = page.getByTestId('aml-declaration-section');
  await expect(section.getByTestId('aml-current')).toContainText('Versión 1');
  await section.getByRole('button', { name: 'Corregir' }).click();
  await expect(page.getByLabel('¿A qué te dedicas? (ocupación o actividad económica)')).toHaveValue('Contadora independiente');
  await page.getByLabel('¿A qué te dedicas? (ocupación o actividad económica)').fill('Arquitecta');
  await reviewAndSign(page, p.e164);
  await expect(section.getByText('Firmaste la versión 2')).toBeVisible();
  await expect(section.getByText(/La compartimos con el negocio que tenía una versión anterior/)).toBeVisible();
  await expect(section.getByTestId('aml-version')).toHaveCount(2);
  await shoot(page, 'aml-declaration-mi-perfil');

  const again = await partner('GET', `/api/partner/v1/verification-sessions/${created.id as string}`);
  expect((again.amlDeclaration as { version: number }).version).toBe(2);
});

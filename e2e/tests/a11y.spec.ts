import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { codeFor, newPerson, sql } from './helpers';

// Issue 9 (web quality): axe-core finds no serious or critical issue on any screen of SPEC §2,
// and the registration and sign-in forms work with the keyboard alone (Tab, typing, Enter).

const ADMIN_PASSWORD = 'admin-dev-only';

/** tabTo presses Tab (at most 40 times) until `target` has the keyboard focus. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`Tab never reached ${target}`);
}

/** typeInto reaches a field with Tab and types into it. */
async function typeInto(page: Page, field: Locator, text: string): Promise<void> {
  await tabTo(page, field);
  await page.keyboard.type(text);
}

/** A serious or critical axe finding, kept short for the failure message. */
interface Finding {
  screen: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * audit waits until the screen has rendered (its chunk and first data loaded), then runs axe-core
 * (WCAG 2.x A/AA and best practices) and returns the serious and critical findings.
 */
async function audit(page: Page, screen: string): Promise<Finding[]> {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('main').getByText('Cargando…', { exact: true })).toHaveCount(0);
  await expect(page.locator('main h1, main h2').first()).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      screen,
      rule: v.id,
      impact: v.impact!,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
}

test('axe-core finds no serious or critical issue on any screen', async ({ page, browser, baseURL }) => {
  test.setTimeout(180_000);
  const findings: Finding[] = [];
  // The app must work under the server's Content-Security-Policy: no violation on any screen.
  const cspViolations: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) cspViolations.push(`${page.url()}: ${msg.text()}`);
  });
  const check = async (screen: string, path?: string) => {
    if (path) await page.goto(path);
    findings.push(...(await audit(page, screen)));
  };

  // Signed out.
  await check('/', '/');
  await check('/login', '/login');
  await check('/integration', '/integration');
  await check('/admin-login', '/admin-login');
  await check('/success', '/success');
  await check('/privacidad', '/privacidad');
  await check('/terminos', '/terminos');
  await check('/verification-complete', '/verification-complete');
  await check('/return', '/return');
  await check('404', '/esta-pagina-no-existe');

  // Registration, then /verify-code with the key it stored, then /profile signed in.
  const p = newPerson('Teresa Teclado Núñez', 'a11y');
  await check('/register', '/register');
  await page.getByLabel('Nombre completo').fill(p.name);
  await page.getByLabel('Correo electrónico').fill(p.email);
  await page.getByLabel('Número de WhatsApp').fill(p.phone);
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByLabel('Código de verificación')).toBeVisible();
  await check('/register (code step)');
  await page.getByLabel('Código de verificación').fill(await codeFor(page.request, p.e164));
  await page.getByRole('button', { name: 'Verificar código' }).click();
  await page.waitForURL('**/profile');
  await check('/profile (level 1)');

  // /verify-code is the sign-in code screen: reach it through /login in a second context.
  const other = await browser.newContext({ baseURL, locale: 'es-MX' });
  const second = await other.newPage();
  await second.goto('/login');
  await second.getByLabel('Correo electrónico (opcional)').fill(p.email);
  await second.getByRole('button', { name: 'Enviar código' }).click();
  await second.waitForURL('**/verify-code');
  findings.push(...(await audit(second, '/verify-code')));
  await other.close();

  // Level 3: /profile with the card, /profile/validated, /invitations, the public page.
  sql(
    `UPDATE users SET verification_level = 3, biometric_verified = true, is_phone_verified = true,
       is_email_verified = true, fecha_validacion = now() WHERE email = :'p1'`,
    p.email,
  );
  const profileId = sql(`SELECT id_validado FROM users WHERE email = :'p1'`, p.email);
  expect(profileId).toMatch(/^PS-\d{4}-\d{4}-\d{2}$/);
  await check('/profile (level 3)', '/profile');
  await check('/profile/validated', '/profile/validated');
  await check('/invitations', '/invitations');
  await check(`/verify/{id}`, `/verify/${profileId}`);
  await check('/verify/{unknown id}', '/verify/PS-0000-0000-00');

  // An invitation code for /accept-invitation?code=…, opened signed out.
  const res = await page.request.post('/api/invitations', {
    data: { inviteeEmail: `invitado.${Date.now()}@example.com`, inviteeName: 'Carlos Invitado Ruiz', type: 'client' },
  });
  expect(res.status()).toBe(201);
  const { invitation } = (await res.json()) as { invitation: { invitationCode: string } };
  const guestContext = await browser.newContext({ baseURL, locale: 'es-MX' });
  const guest = await guestContext.newPage();
  await guest.goto(`/accept-invitation?code=${invitation.invitationCode}`);
  await expect(guest.getByRole('button', { name: 'Aceptar invitación' })).toBeVisible();
  findings.push(...(await audit(guest, '/accept-invitation?code=…')));
  await guestContext.close();

  // The administrator's screens.
  await page.goto('/admin-login');
  await page.getByLabel('Contraseña', { exact: true }).fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Acceder' }).click();
  await expect(page.getByRole('heading', { name: 'Panel de Administración' })).toBeVisible();
  await check('/admin');

  // Dark theme: the landing and the public page.
  await page.evaluate(() => localStorage.setItem('theme', 'dark'));
  await check('/ (dark)', '/');
  await check('/verify/{id} (dark)', `/verify/${profileId}`);

  expect(findings, JSON.stringify(findings, null, 2)).toEqual([]);
  expect(cspViolations).toEqual([]);
});

test('registration and sign-in work with the keyboard alone', async ({ page }) => {
  test.setTimeout(90_000);
  const p = newPerson('Teresa Teclado Núñez', 'teclado');

  // /register: Tab to each field, type, Enter submits.
  await page.goto('/register');
  await typeInto(page, page.getByLabel('Nombre completo'), p.name);
  await typeInto(page, page.getByLabel('Correo electrónico'), p.email);
  await typeInto(page, page.getByLabel('Número de WhatsApp'), p.phone);
  await page.keyboard.press('Enter');
  const codeField = page.getByLabel('Código de verificación');
  await expect(codeField).toBeVisible();
  await typeInto(page, codeField, await codeFor(page.request, p.e164));
  await page.keyboard.press('Enter');
  await page.waitForURL('**/profile');

  // Sign out with the keyboard: Tab to the button, Enter.
  await tabTo(page, page.getByRole('button', { name: 'Cerrar sesión' }));
  await page.keyboard.press('Enter');
  await expect(page).not.toHaveURL(/\/profile$/);

  // /login by e-mail: Tab, type, Enter; then the code on /verify-code, Enter.
  await page.goto('/login');
  await typeInto(page, page.getByLabel('Correo electrónico (opcional)'), p.email);
  await page.keyboard.press('Enter');
  await page.waitForURL('**/verify-code');
  await typeInto(page, page.getByLabel('Código de verificación'), await codeFor(page.request, p.email));
  await page.keyboard.press('Enter');
  await page.waitForURL('**/profile');
  await expect(page.getByText(p.email).first()).toBeVisible();
});

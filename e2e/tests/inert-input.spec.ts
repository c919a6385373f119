import { expect, test, type Page } from '@playwright/test';
import { sql } from './helpers';

// Issue 9 (bad input, security): script injection typed into stored text fields is shown as
// text, never run, on the screens that print it (the public page, the admin table, the
// invitation a guest opens, the inviter's list); and the screens raise no Content-Security-Policy
// violation while doing so.


/** Each payload sets window.__pwned if a browser ever runs it. */
const payload = (tag: string) =>
  `${tag} <img src=x onerror="window.__pwned='${tag}'"><script>window.__pwned='${tag}'</script><svg onload="window.__pwned='${tag}'">`;

/** watch records CSP violations and script errors of a page. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy|Refused to/i.test(msg.text())) problems.push(msg.text());
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  return problems;
}

/** expectInert checks that the payload is printed as text and that nothing it carries ran or was parsed. */
async function expectInert(page: Page, tag: string): Promise<void> {
  await expect(page.getByText(`${tag} <img src=x`, { exact: false }).first()).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
  await expect(page.locator('img[src="x"], main script, svg[onload]')).toHaveCount(0);
}

test('script injection in stored text fields is shown as text and never runs', async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  const problems = watch(page);
  const digits = String(Math.floor(Math.random() * 90_000_000) + 10_000_000);
  const email = `inert.${Date.now().toString(36)}@example.com`;
  const name = payload('NOMBRE');

  // Registration keeps the name as typed (any characters are a valid name).
  await page.goto('/register');
  await page.getByLabel('Nombre completo').fill(name);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Número de WhatsApp').fill(`55${digits}`);
  await page.getByRole('button', { name: 'Continuar' }).click();
  let code = '';
  await expect
    .poll(async () => {
      const res = await page.request.get(`/dev/inbox.json?to=${encodeURIComponent(`+5255${digits}`)}`);
      const msgs = ((await res.json()) as { text: string }[] | null) ?? [];
      code = msgs.map((m) => /(?<!\d)(\d{6})(?!\d)/.exec(m.text)?.[1]).find(Boolean) ?? '';
      return code;
    })
    .not.toBe('');
  await page.getByLabel('Código de verificación').fill(code);
  await page.getByRole('button', { name: 'Verificar código' }).click();
  await page.waitForURL('**/profile');
  await expectInert(page, 'NOMBRE');

  // Level 3, then the public page prints the stored name.
  sql(
    `UPDATE users SET verification_level = 3, biometric_verified = true, is_phone_verified = true,
       is_email_verified = true, fecha_validacion = now() WHERE email = :'p1'`,
    email,
  );
  const profileId = sql(`SELECT id_validado FROM users WHERE email = :'p1'`, email);
  await page.goto(`/verify/${profileId}`);
  await expectInert(page, 'NOMBRE');

  // An invitation whose company and message carry payloads: the inviter's list and the guest's page.
  const res = await page.request.post('/api/invitations', {
    data: {
      inviteeEmail: `invitado.${Date.now()}@example.com`,
      inviteeName: payload('INVITADO'),
      type: 'broker',
      companyName: payload('EMPRESA'),
      personalMessage: payload('MENSAJE'),
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { invitation } = (await res.json()) as { invitation: { invitationCode: string } };
  await page.goto('/invitations');
  await page.getByRole('tab', { name: 'Gestionar' }).click();
  await expectInert(page, 'INVITADO');

  const guestContext = await browser.newContext({ baseURL, locale: 'es-MX' });
  const guest = await guestContext.newPage();
  const guestProblems = watch(guest);
  await guest.goto(`/accept-invitation?code=${invitation.invitationCode}`);
  await expectInert(guest, 'NOMBRE');
  await expectInert(guest, 'EMPRESA');
  await expectInert(guest, 'MENSAJE');
  await guestContext.close();

  // The administrator's users table, searched by the e-mail.
  await page.goto('/admin-login');
  await page.getByLabel('Contraseña', { exact: true }).fill('admin-dev-only');
  await page.getByRole('button', { name: 'Acceder' }).click();
  await expect(page.getByRole('heading', { name: 'Panel de Administración' })).toBeVisible();
  await page.getByLabel('Buscar usuarios').fill(email);
  await expectInert(page, 'NOMBRE');

  expect([...problems, ...guestProblems]).toEqual([]);
});

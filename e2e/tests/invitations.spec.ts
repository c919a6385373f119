import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { newPerson, registerInUI, sql } from './helpers';

// Issue 6: a level-3 user invites someone; the invitee accepts through the unique link from the
// development inbox, lands on /profile, and the inviter sees the invitation as accepted.

const screenshotDir = path.resolve(__dirname, '..', 'screenshots');
const EXPIRED = 'Esta invitación ha expirado. Contacta a quien te invitó para solicitar una nueva.';

/**
 * signUpInviter registers through /register with the code from /dev/inbox, then promotes the
 * account to level 3 in the database (the biometric flow has its own spec).
 */
async function signUpInviter(page: Page): Promise<{ name: string; email: string }> {
  const p = newPerson('Ana Invitadora López', 'inviter');
  await registerInUI(page, p);
  sql(
    `UPDATE users SET verification_level = 3, biometric_verified = true, is_phone_verified = true,
       is_email_verified = true, fecha_validacion = now() WHERE email = :'p1'`,
    p.email,
  );
  return p;
}

/** linkFor waits for the invitation e-mail to `email` in the inbox and returns its unique link. */
async function linkFor(page: Page, email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/dev/inbox.json?to=${encodeURIComponent(email)}`);
        const msgs = ((await res.json()) as Array<{ channel: string; text: string }> | null) ?? [];
        link = msgs
          .filter((m) => m.channel === 'email')
          .map((m) => /https?:\/\/\S+\/accept-invitation\?token=[0-9a-f]{64}/.exec(m.text)?.[0])
          .find(Boolean);
        return link;
      },
      { message: `the invitation e-mail to ${email}`, timeout: 15_000, intervals: [250, 500, 1000] },
    )
    .toBeDefined();
  return link!;
}

/** sendInvitation fills the send tab of /invitations. */
async function sendInvitation(page: Page, invitee: { name: string; email: string; phone?: string }) {
  await page.getByRole('tab', { name: 'Enviar invitación' }).click();
  await page.getByLabel('Nombre del invitado').fill(invitee.name);
  await page.getByLabel('Correo electrónico').fill(invitee.email);
  if (invitee.phone) await page.getByLabel('Teléfono (opcional)').fill(invitee.phone);
  await page.getByLabel('Tipo de invitación').selectOption('broker');
  await page.getByLabel('Empresa (opcional)').fill('Inmobiliaria Sol');
  await page.getByLabel('Mensaje personal (opcional)').fill('¡Hola! Valida tu identidad para cerrar la operación.');
  await page.getByRole('button', { name: 'Enviar invitación' }).click();
  await expect(page.getByTestId('toast')).toContainText('Invitación enviada');
}

async function inviteeContext(browser: Browser) {
  return browser.newContext({ baseURL: test.info().project.use.baseURL, locale: 'es-MX' });
}

test('a level-3 user invites; the invitee accepts from the e-mailed link and the inviter sees it accepted', async ({ page, browser }) => {
  const inviter = await signUpInviter(page);
  await page.goto('/invitations');
  await expect(page.getByRole('heading', { name: 'Invitaciones', level: 1 })).toBeVisible();
  await page.screenshot({ path: path.join(screenshotDir, 'invitations-send.png'), fullPage: true });

  const invitee = newPerson('Carlos Invitado Ruiz', 'invitee');
  await sendInvitation(page, invitee);
  // The links tab shows the new unique link with its copy control.
  await expect(page.getByRole('tab', { name: 'Links únicos', selected: true })).toBeVisible();
  await expect(page.getByTestId('invitation-link')).toHaveCount(1);
  await page.screenshot({ path: path.join(screenshotDir, 'invitations-links.png'), fullPage: true });

  // WhatsApp went to the phone (stored with +52), the e-mail carries the unique link.
  const link = await linkFor(page, invitee.email);
  await expect(page.getByTestId('invitation-link').locator('input')).toHaveValue(link);
  await expect
    .poll(async () => ((await (await page.request.get(`/dev/inbox.json?to=%2B52${invitee.phone}`)).json()) ?? []).length)
    .toBeGreaterThan(0);

  const ctx = await inviteeContext(browser);
  const guest = await ctx.newPage();
  await guest.goto(link);
  await expect(guest.getByText(inviter.name)).toBeVisible();
  await expect(guest.getByText('Inmobiliaria Sol')).toBeVisible();
  await expect(guest.getByLabel('Nombre completo')).toHaveValue(invitee.name);
  await expect(guest.getByRole('link', { name: 'Inicia sesión' })).toHaveAttribute('href', '/login');
  await guest.screenshot({ path: path.join(screenshotDir, 'accept-invitation.png'), fullPage: true });
  await guest.getByLabel('Teléfono (WhatsApp)').fill(invitee.phone);
  await guest.getByRole('button', { name: 'Aceptar invitación' }).click();
  await guest.waitForURL('**/profile');
  await expect(guest.getByRole('heading', { name: 'Mi Perfil', level: 1 })).toBeVisible();
  await expect(guest.getByText(invitee.name).first()).toBeVisible();

  // The link was single-use.
  await guest.goto(link);
  await expect(guest.getByText('Link de invitación no válido o expirado')).toBeVisible();
  await ctx.close();

  await page.reload();
  await page.getByRole('tab', { name: 'Gestionar' }).click();
  const row = page.locator(`[data-testid="invitation-row"][data-email="${invitee.email}"]`);
  await expect(row.getByTestId('invitation-status')).toHaveText('Aceptada');
  await expect(row.getByRole('button', { name: 'Cancelar' })).toHaveCount(0);
  await page.screenshot({ path: path.join(screenshotDir, 'invitations-manage.png'), fullPage: true });
});

test('an expired invitation shows the expired message; a cancelled one is refused', async ({ page, browser }) => {
  await signUpInviter(page);
  await page.goto('/invitations');
  const late = newPerson('Diana Tardía', 'late');
  await sendInvitation(page, late);
  const lateLink = await linkFor(page, late.email);
  sql(`UPDATE invitations SET expires_at = now() - interval '1 hour' WHERE invitee_email = :'p1'`, late.email);

  const cancelled = newPerson('Ernesto Cancelado', 'cancel');
  await sendInvitation(page, cancelled);
  // The invitee has the e-mail before the inviter cancels: a cancelled invitation is never
  // delivered afterwards, so waiting for it only after cancelling raced the delivery job.
  const cancelledLink = await linkFor(page, cancelled.email);
  await page.getByRole('tab', { name: 'Gestionar' }).click();
  const row = page.locator(`[data-testid="invitation-row"][data-email="${cancelled.email}"]`);
  await row.getByRole('button', { name: 'Regenerar link' }).click();
  await expect(page.getByTestId('toast')).toContainText('Próximamente');
  await row.getByRole('button', { name: 'Cancelar' }).click();
  await expect(row.getByTestId('invitation-status')).toHaveText('Cancelada');
  // Past its time it reads as expired even before the expiry job runs.
  await expect(page.locator(`[data-testid="invitation-row"][data-email="${late.email}"]`).getByTestId('invitation-status')).toHaveText(
    'Expirada',
  );

  const ctx = await inviteeContext(browser);
  const guest = await ctx.newPage();
  await guest.goto(lateLink);
  await expect(guest.getByText(EXPIRED)).toBeVisible();
  await expect(guest.getByRole('button', { name: 'Aceptar invitación' })).toHaveCount(0);
  await guest.screenshot({ path: path.join(screenshotDir, 'accept-invitation-expired.png'), fullPage: true });

  await guest.goto(cancelledLink);
  await expect(guest.getByText('Link de invitación no válido o expirado')).toBeVisible();
  await ctx.close();
});

test('a user without biometric verification is sent to /profile with Acceso restringido', async ({ page }) => {
  const p = newPerson('Beto Sin Biometría', 'nobio');
  await registerInUI(page, p);

  await page.goto('/invitations');
  await page.waitForURL('**/profile');
  await expect(page.getByTestId('toast')).toContainText('Acceso restringido');
});

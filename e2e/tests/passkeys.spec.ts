import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { useSecondServer } from '../second-server';
import { codeFor, newPerson, registerInUI } from './helpers';

// Issue 26, passkeys for people, in Chromium's virtual authenticator (CDP WebAuthn domain).
// WebAuthn refuses an IP address as relying party (browsers and go-webauthn alike), and the
// suite's server is http://127.0.0.1:…; so this spec starts the same binary beside it with
// PUBLIC_BASE_URL=http://localhost:…, on its own database and Redis DB, as payments-off does.

const screenshotDir = path.resolve(__dirname, '..', 'screenshots');

/** inboxCount is how many development-inbox messages went to `to`. */
async function inboxCount(request: APIRequestContext, to: string): Promise<number> {
  const res = await request.get(`/dev/inbox.json?to=${encodeURIComponent(to)}`);
  expect(res.status()).toBe(200);
  return (((await res.json()) as unknown[] | null) ?? []).length;
}

/** codesTo lists the 6-digit codes the development inbox holds for `to`. */
async function codesTo(request: APIRequestContext, to: string): Promise<string[]> {
  const res = await request.get(`/dev/inbox.json?to=${encodeURIComponent(to)}`);
  expect(res.status()).toBe(200);
  const messages = ((await res.json()) as { text: string }[] | null) ?? [];
  return messages.flatMap((m) => /(?<!\d)(\d{6})(?!\d)/.exec(m.text)?.[1] ?? []);
}

test.describe('passkeys', () => {
  const server = useSecondServer({ offset: 2, suffix: 'llaves', host: 'localhost' });

  test('a person creates a passkey, signs out, signs in with it without any message, and deletes it', async ({ page }) => {
    test.setTimeout(90_000);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });

    // The virtual authenticator answers a conditional (autofill) request by itself, which would
    // sign in as soon as /login opens; switch conditional UI off to drive the button.
    await page.addInitScript(() => {
      PublicKeyCredential.isConditionalMediationAvailable = async () => false;
    });

    const p = newPerson('Lucía Llaves', 'llaves');
    await registerInUI(page, p);

    // Mi Perfil: create the passkey.
    const card = page.getByTestId('passkeys-card');
    await expect(card.getByRole('heading', { name: 'Llaves de acceso' })).toBeVisible();
    await expect(card).toContainText('Aún no tienes llaves de acceso.');
    await card.getByRole('button', { name: 'Crear llave de acceso' }).click();
    // A session alone cannot add a passkey (issue 54, item 21): first a code to the current phone;
    // the first passkey can only be confirmed that way.
    await expect(card.getByText(/primero confirma que eres tú/)).toBeVisible();
    await expect(card.getByRole('button', { name: 'Confirmar con mi llave de acceso' })).toHaveCount(0);
    const earlier = await codesTo(page.request, p.e164);
    await card.getByRole('button', { name: 'Enviar código a mi contacto actual' }).click();
    await card.getByLabel('Código de confirmación').fill(await codeFor(page.request, p.e164, earlier));
    await card.getByRole('button', { name: 'Confirmar código' }).click();
    await expect(card.getByTestId('passkey-row')).toHaveCount(1);
    await expect(card.getByTestId('passkey-row')).toContainText('Llave de acceso 1');
    await expect(card.getByTestId('passkey-row')).toContainText('Aún no la usas para entrar');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0].isResidentCredential).toBe(true);

    // Sign out.
    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await expect(page).toHaveURL(/\/$/);
    expect((await page.request.get('/api/auth/status')).status()).toBe(401);
    const messagesBefore = (await inboxCount(page.request, p.e164)) + (await inboxCount(page.request, p.email));

    // Sign in with the passkey alone: no phone or e-mail typed.
    await page.goto('/login');
    await expect(page.getByLabel('Correo electrónico (opcional)')).toHaveAttribute('autocomplete', 'username webauthn');
    await page.screenshot({ path: path.join(screenshotDir, 'passkeys-login.png'), fullPage: true });
    await page.getByRole('button', { name: 'Entrar con llave de acceso' }).click();
    await expect(page).toHaveURL(/\/profile$/, { timeout: 10_000 });
    await expect(page.getByText('Entraste con tu llave de acceso.')).toBeVisible();
    expect((await page.request.get('/api/auth/status')).status()).toBe(200);
    expect(await page.evaluate(() => localStorage.getItem('userId'))).toMatch(/^\d+$/);

    // Nothing was sent to the person (give the worker the time a code would take).
    await page.waitForTimeout(2_000);
    expect((await inboxCount(page.request, p.e164)) + (await inboxCount(page.request, p.email))).toBe(messagesBefore);

    // The list shows the use; rename it.
    const row = card.getByTestId('passkey-row');
    await expect(row).toContainText('Último uso:');
    await card.getByRole('button', { name: 'Cambiar nombre de Llave de acceso 1' }).click();
    await card.getByLabel('Nombre de la llave').fill('Mi computadora');
    await card.getByRole('button', { name: 'Guardar' }).click();
    await expect(row).toContainText('Mi computadora');
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(screenshotDir, 'passkeys-profile.png'), fullPage: true });
    await card.screenshot({ path: path.join(screenshotDir, 'passkeys-card.png') });

    // Delete it, after confirming.
    await card.getByRole('button', { name: 'Eliminar Mi computadora' }).click();
    const dialog = page.getByRole('dialog', { name: '¿Eliminar esta llave de acceso?' });
    await dialog.getByRole('button', { name: 'Eliminar' }).click();
    await expect(card).toContainText('Aún no tienes llaves de acceso.');
    await expect(page.getByText('Llave de acceso eliminada')).toBeVisible();

    // The deleted passkey, still on the device, no longer signs in; the code sign-in stays.
    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Entrar con llave de acceso' }).click();
    await expect(page.getByText('No reconocemos esta llave de acceso. Entra con tu código y crea una nueva.')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Enviar código' })).toBeEnabled();
  });
  test('an administrator enrolled from the CLI signs in with a passkey, revokes after a fresh assertion, and the Bitácora shows it; soporte cannot revoke', async ({ browser }) => {
    test.setTimeout(120_000);
    const stamp = Date.now().toString().slice(-6);
    const { env, baseURL, database } = server;
    const bin = path.resolve(__dirname, '..', '..', 'bin', 'perfilseguro');
    const enrolLink = (email: string, name: string, role: string): string => {
      const out = execFileSync(bin, ['admin', 'create', '--email', email, '--name', name, '--role', role], { env, encoding: 'utf8' });
      const link = /https?:\/\/\S+\/admin-enrol\?token=\S+/.exec(out)?.[0];
      expect(link, out).toBeTruthy();
      return link!;
    };
    /** A browser with its own virtual authenticator, as each administrator has their own device. */
    const withAuthenticator = async () => {
      const context = await browser.newContext({ baseURL });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
      });
      return { context, page };
    };
    const psql = (sql: string) =>
      execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', database, '-w', '-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-c', sql], {
        encoding: 'utf8',
      }).trim();

    // The first administrator: enrolled from the link the CLI printed.
    const opsEmail = `ops.${stamp}@perfilseguro.mx`;
    const { context, page } = await withAuthenticator();
    await page.goto(enrolLink(opsEmail, 'Olga Operaciones', 'administrador'));
    await expect(page.getByRole('heading', { name: 'Registra tu llave de acceso' })).toBeVisible();
    await expect(page.getByText('Olga Operaciones')).toBeVisible();
    await page.screenshot({ path: path.join(screenshotDir, 'admin-enrol.png'), fullPage: true });
    await page.getByRole('button', { name: 'Crear llave de acceso' }).click();
    await expect(page).toHaveURL(/\/admin$/);

    // Signs out and back in with the passkey alone.
    await page.getByRole('button', { name: 'Cerrar Sesión' }).click();
    await expect(page).toHaveURL(/\/admin-login$/);
    await page.getByRole('button', { name: 'Entrar con llave de acceso' }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { name: 'Panel de Administración' })).toBeVisible();

    // A user to revoke.
    const name = `Revocable ${stamp}`;
    await page.getByRole('tab', { name: 'Crear Usuario' }).click();
    await page.getByLabel('Nombre', { exact: true }).fill(name);
    await page.getByLabel('Email', { exact: true }).fill(`revocable.${stamp}@example.mx`);
    await page.getByRole('button', { name: 'Crear Usuario' }).click();
    const toast = page.getByTestId('toast');
    await expect(toast).toContainText('Usuario creado');
    const profileId = /PS-\d{4}-\d{4}-\d{2}/.exec(await toast.innerText())![0];

    // The sign-in's assertion is no longer fresh: the revoke asks for the passkey again (the
    // virtual authenticator answers), then goes through.
    psql(`UPDATE admin_sessions SET asserted_at = now() - interval '10 minutes' WHERE admin_id = (SELECT id FROM admins WHERE email = '${opsEmail}')`);
    await page.getByPlaceholder('Buscar usuarios...').fill(profileId);
    const row = page.getByTestId('user-row').filter({ hasText: name });
    await row.getByRole('button', { name: `Validación de ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Validación de ${name}` });
    await dialog.getByRole('textbox', { name: 'Motivo de la revocación' }).fill('Documento reportado como robado');
    await dialog.getByRole('button', { name: 'Revocar validación' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Validación revocada' })).toBeVisible({ timeout: 15_000 });
    await expect(dialog.getByTestId('lifecycle-events')).toContainText(opsEmail);
    await dialog.getByRole('button', { name: 'Cerrar' }).first().click();
    expect(psql(`SELECT outcome FROM audit_events WHERE action = 'user.revoke' ORDER BY id`)).toBe('denied\nok');

    // A second user, left valid, for the soporte administrator to look at.
    const intact = `Intacto ${stamp}`;
    await page.getByRole('tab', { name: 'Crear Usuario' }).click();
    await page.getByLabel('Nombre', { exact: true }).fill(intact);
    await page.getByLabel('Email', { exact: true }).fill(`intacto.${stamp}@example.mx`);
    await page.getByRole('button', { name: 'Crear Usuario' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Usuario creado' }).last()).toBeVisible();
    const intactId = /PS-\d{4}-\d{4}-\d{2}/.exec(await page.getByTestId('toast').filter({ hasText: 'Usuario creado' }).last().innerText())![0];

    // The Bitácora shows who revoked what, from where.
    await page.getByRole('tab', { name: 'Bitácora' }).click();
    await page.getByLabel('Acción').fill('user.revoke');
    await page.getByRole('button', { name: 'Filtrar' }).click();
    const revokeRow = page.getByTestId('audit-row').first();
    await expect(revokeRow).toContainText(opsEmail);
    await expect(revokeRow).toContainText('Revocación de la validación');
    await expect(revokeRow).toContainText('user.revoke');
    await expect(revokeRow).toContainText(/Perfil PS-\d{4}-\d{4}-\d{2}/);
    // The export button stays inside the Bitácora at 1280 px and at 375 px.
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      const section = await page.getByRole('region', { name: 'Bitácora' }).boundingBox();
      const exportLink = await page.getByRole('link', { name: 'Exportar CSV' }).boundingBox();
      expect(exportLink!.x + exportLink!.width, `at ${width} px`).toBeLessThanOrEqual(section!.x + section!.width + 0.5);
      await page.screenshot({ path: path.join(screenshotDir, `admin-bitacora-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // A soporte administrator: sees the user, no revoke button, and the server refuses it anyway.
    const support = await withAuthenticator();
    await support.page.goto(enrolLink(`soporte.${stamp}@perfilseguro.mx`, 'Samuel Soporte', 'soporte'));
    await support.page.getByRole('button', { name: 'Crear llave de acceso' }).click();
    await expect(support.page).toHaveURL(/\/admin$/);
    await support.page.getByPlaceholder('Buscar usuarios...').fill(intactId);
    const supportRow = support.page.getByTestId('user-row').filter({ hasText: intact });
    await expect(supportRow).toHaveCount(1);
    await expect(supportRow.getByRole('button', { name: `Eliminar ${intact}` })).toHaveCount(0);
    await supportRow.getByRole('button', { name: `Validación de ${intact}` }).click();
    const supportDialog = support.page.getByRole('dialog', { name: `Validación de ${intact}` });
    await expect(supportDialog.getByText('Historial')).toBeVisible();
    await expect(supportDialog.getByText('Esta validación está revocada.')).toHaveCount(0);
    await expect(support.page.getByRole('button', { name: 'Revocar validación' })).toHaveCount(0);
    await expect(supportDialog.getByRole('button', { name: 'Cerrar' }).first()).toBeVisible();
    await support.page.waitForTimeout(300); // the dialog's fade-in, for the screenshot
    await support.page.screenshot({ path: path.join(screenshotDir, 'admin-soporte.png'), fullPage: true });
    const users = await (await support.page.request.get(`/api/users?q=${intactId}`)).json();
    const refused = await support.page.request.post(`/api/admin/users/${users[0].id}/revoke`, { data: { motivo: 'No debería poder' } });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).message).toMatch(/rol|permiso/i);
    expect(psql(`SELECT count(*) FROM users WHERE id_validado = '${intactId}' AND revoked_at IS NULL`)).toBe('1');

    await support.context.close();
    await context.close();
  });
});

import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { approveOnSimulator, newPerson, reachLevel3, waitForMessage } from './helpers';

// Administration issue: admin sign-in, the users table (create, search, edit,
// delete), signing out, and the guard. The e2e server runs with APP_ENV=test,
// where the documented development password applies (README: admin-dev-only).

const ADMIN_PASSWORD = 'admin-dev-only';
const screenshotDir = path.resolve(__dirname, '..', 'screenshots');

async function signInAsAdmin(page: Page) {
  await page.goto('/admin-login');
  const button = page.getByRole('button', { name: 'Acceder' });
  await expect(button).toBeDisabled();
  await page.getByLabel('Contraseña', { exact: true }).fill(ADMIN_PASSWORD);
  await expect(button).toBeEnabled();
  await button.click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: 'Panel de Administración' })).toBeVisible();
}

test('/admin without signing in redirects to /admin-login', async ({ page }) => {
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin-login$/);
  await expect(page.getByRole('button', { name: 'Acceder' })).toBeDisabled();
});

test('a wrong password shows the red alert and keeps the admin out', async ({ page }) => {
  await page.goto('/admin-login');
  await page.getByLabel('Contraseña', { exact: true }).fill('no-es-la-clave');
  await page.getByRole('button', { name: 'Acceder' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Contraseña incorrecta' })).toBeVisible();
  await page.screenshot({ path: path.join(screenshotDir, 'admin-login-error.png') });
  await expect(page).toHaveURL(/\/admin-login$/);
  const session = await page.request.get('/api/admin/session');
  expect((await session.json()).authenticated).toBe(false);
});

test('admin creates, finds, edits and deletes a user, then signs out', async ({ page }) => {
  await signInAsAdmin(page);
  const flags = await page.evaluate(() => [localStorage.getItem('adminAuthenticated'), localStorage.getItem('adminLoginTime')]);
  expect(flags[0]).toBe('true');
  expect(Number(flags[1])).toBeGreaterThan(Date.now() - 60_000);

  // Create: the toast shows the new validated ID.
  const stamp = Date.now().toString().slice(-6);
  const name = `Prueba Admin ${stamp}`;
  const email = `admin.e2e.${stamp}@example.mx`;
  await page.getByRole('tab', { name: 'Crear Usuario' }).click();
  await page.getByRole('button', { name: 'Crear Usuario' }).click();
  await expect(page.getByText('El nombre debe tener al menos 3 caracteres')).toBeVisible();
  await page.getByLabel('Nombre', { exact: true }).fill(name);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Origen').selectOption('Broker');
  await page.getByLabel('Vigencia').selectOption('5');
  await page.getByRole('button', { name: 'Crear Usuario' }).click();
  const toast = page.getByTestId('toast');
  await expect(toast).toContainText('Usuario creado');
  const toastText = (await toast.innerText()).trim();
  const profileId = /PS-\d{4}-\d{4}-\d{2}/.exec(toastText)?.[0];
  expect(profileId, toastText).toBeTruthy();
  await expect(page.getByRole('tab', { name: 'Usuarios' })).toHaveAttribute('aria-selected', 'true');

  // Find it with the search box, by name and by its ID.
  const search = page.getByPlaceholder('Buscar usuarios...');
  await search.fill(stamp);
  const rows = page.getByTestId('user-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(name);
  await expect(rows.first()).toContainText(email);
  await expect(rows.first()).toContainText('Broker');
  await expect(rows.first()).toContainText('5 años');
  await expect(rows.first()).toContainText(profileId!);
  await search.fill(profileId!.toLowerCase());
  await expect(rows).toHaveCount(1);
  await page.screenshot({ path: path.join(screenshotDir, 'admin-users.png'), fullPage: true });

  // Edit: the form loads the user; change the name, clear the e-mail, vigencia 1 year.
  await rows.first().getByRole('button', { name: `Editar ${name}` }).click();
  await expect(page.getByRole('tab', { name: 'Editar Usuario' })).toHaveAttribute('aria-selected', 'true');
  const nombre = page.getByLabel('Nombre', { exact: true });
  await expect(nombre).toHaveValue(name);
  await expect(page.getByLabel('Vigencia')).toHaveValue('5');
  await nombre.fill(`${name} Editado`);
  await page.getByLabel('Email', { exact: true }).fill('');
  await page.getByLabel('Vigencia').selectOption('1');
  await page.screenshot({ path: path.join(screenshotDir, 'admin-edit.png'), fullPage: true });
  await page.getByRole('button', { name: 'Guardar Cambios' }).click();
  await expect(toast).toContainText('Usuario actualizado');
  await search.fill(stamp);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`${name} Editado`);
  await expect(rows.first()).toContainText('N/A');
  await expect(rows.first()).toContainText('1 año');

  // Delete through the dialog: Cancelar first, then Eliminar.
  await rows.first().getByRole('button', { name: `Eliminar ${name} Editado` }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog.getByText('¿Estás seguro?')).toBeVisible();
  await expect(dialog).toContainText('Esta acción no se puede deshacer. Se eliminará permanentemente este usuario y su información de validación.');
  await page.screenshot({ path: path.join(screenshotDir, 'admin-delete-dialog.png') });
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await expect(dialog).toBeHidden();
  await expect(rows).toHaveCount(1);
  await rows.first().getByRole('button', { name: `Eliminar ${name} Editado` }).click();
  await dialog.getByRole('button', { name: 'Eliminar' }).click();
  await expect(toast).toContainText('Usuario eliminado');
  await expect(toast).toContainText('El usuario ha sido eliminado correctamente');
  await expect(rows).toHaveCount(0);
  await expect(page.getByText('No se encontraron usuarios.')).toBeVisible();

  // Sign out: back to /admin-login, flags gone, the server session revoked.
  await page.getByRole('button', { name: 'Cerrar Sesión' }).click();
  await expect(page).toHaveURL(/\/admin-login$/);
  expect(await page.evaluate(() => localStorage.getItem('adminAuthenticated'))).toBeNull();
  const users = await page.request.get('/api/users');
  expect(users.status()).toBe(401);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin-login$/);
});

test('the monitoring dashboard opens only with the admin session', async ({ page }) => {
  const anonymous = await page.request.get('/admin/monitoring/', { headers: { Accept: 'text/html' }, maxRedirects: 0 });
  expect(anonymous.status()).toBe(303);
  expect(anonymous.headers()['location']).toBe('/admin-login');
  await signInAsAdmin(page);
  await page.screenshot({ path: path.join(screenshotDir, 'admin-panel.png'), fullPage: true });
  const dashboard = await page.request.get('/admin/monitoring/');
  expect(dashboard.status()).toBe(200);
  expect(await dashboard.text()).toContain('<html');
});

test('admin revokes a validation with a reason; the public page says Revocado', async ({ page }) => {
  await signInAsAdmin(page);
  const stamp = Date.now().toString().slice(-6);
  const name = `Revocación ${stamp}`;
  await page.getByRole('tab', { name: 'Crear Usuario' }).click();
  await page.getByLabel('Nombre', { exact: true }).fill(name);
  await page.getByLabel('Email', { exact: true }).fill(`revoca.e2e.${stamp}@example.mx`);
  await page.getByRole('button', { name: 'Crear Usuario' }).click();
  const toast = page.getByTestId('toast');
  await expect(toast).toContainText('Usuario creado');
  const profileId = /PS-\d{4}-\d{4}-\d{2}/.exec(await toast.innerText())?.[0];
  expect(profileId).toBeTruthy();

  await page.getByPlaceholder('Buscar usuarios...').fill(profileId!);
  const row = page.getByTestId('user-row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: `Validación de ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Validación de ${name}` });
  await expect(dialog.getByText('Sin cambios desde la validación.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Revocar validación' }).click();
  await expect(dialog.getByText('El motivo de la revocación es requerido')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Motivo de la revocación' }).fill('Identificación reportada como robada');
  await dialog.getByRole('button', { name: 'Revocar validación' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Validación revocada' })).toBeVisible();
  const events = dialog.getByTestId('lifecycle-events');
  await expect(events).toContainText('Revocado');
  await expect(events).toContainText('Motivo: Identificación reportada como robada');
  await expect(events).toContainText('Por un administrador');
  await expect(dialog.getByText('Esta validación está revocada.')).toBeVisible();
  await page.screenshot({ path: path.join(screenshotDir, 'admin-revoke.png') });
  await dialog.getByRole('button', { name: 'Cerrar' }).first().click();
  await expect(row.getByText('Revocado')).toBeVisible();

  // The public page: Revocado, the warning, and never the reason.
  await page.goto(`/verify/${profileId}`);
  await expect(page.getByTestId('public-badge')).toHaveText('Revocado');
  await expect(page.getByText('Validación revocada')).toBeVisible();
  await expect(page.getByText('robada')).toHaveCount(0);
  await page.screenshot({ path: path.join(screenshotDir, 'public-revoked.png'), fullPage: true });
});

// Issue 38, "Revocation must mean revoked": while revoked, Mi Perfil says so everywhere and
// nothing starts, even after a name correction; an administrador lifts it with a reason, the
// person is told by e-mail and may validate again with a new check.
test('a revoked person cannot validate again until an administrador lifts the revocation', async ({ page, browser, baseURL }) => {
  test.setTimeout(180_000);
  const p = newPerson('Rebeca Revocada Soto', 'revocada');
  await reachLevel3(page, p);
  const me = await (await page.request.get('/api/auth/status')).json();

  // The administrator, in their own browser, revokes.
  const adminContext = await browser.newContext({ baseURL });
  const admin = await adminContext.newPage();
  await signInAsAdmin(admin);
  await admin.getByPlaceholder('Buscar usuarios...').fill(p.email);
  const row = admin.getByTestId('user-row').filter({ hasText: p.name });
  await row.getByRole('button', { name: `Validación de ${p.name}` }).click();
  let dialog = admin.getByRole('dialog', { name: `Validación de ${p.name}` });
  await dialog.getByRole('textbox', { name: 'Motivo de la revocación' }).fill('Documento reportado como robado');
  await dialog.getByRole('button', { name: 'Revocar validación' }).click();
  await expect(dialog.getByText('Esta validación está revocada.')).toBeVisible({ timeout: 15_000 });
  await dialog.getByRole('button', { name: 'Cerrar' }).first().click();

  // Mi Perfil says revoked in every part, and nothing can start.
  const expectRevoked = async (shot: string) => {
    await page.goto('/profile');
    await expect(page.getByTestId('verification-badge')).toHaveText('Verificación revocada');
    // (The e-mail card's own 'Verificación Completa' of SPEC §2 is about the e-mail, and stays.)
    await expect(page.getByText('Verificación completa', { exact: true })).toHaveCount(0);
    await expect(page.getByText('Mientras siga revocada, no puedes iniciar una nueva verificación.')).toBeVisible();
    const start = page.getByRole('button', { name: 'Completar Verificación' });
    await expect(start).toBeDisabled();
    await expect(page.getByText('Tu validación fue revocada: no puedes iniciar una nueva verificación hasta que soporte revise tu caso.')).toBeVisible();
    await expect(page.getByTestId('card-status')).toHaveText('Revocado');
    const plan = page.getByTestId('plan-card');
    await expect(plan.getByTestId('plan-revoked')).toContainText('Validación revocada');
    await expect(plan.getByText('Plan activo')).toHaveCount(0);
    await expect(page.getByTestId('credential-revoked')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Invitaciones' })).toHaveCount(0);
    for (const [width, height] of [[1280, 900], [375, 812]]) {
      await page.setViewportSize({ width, height });
      // Nothing widens the page sideways (on a phone included).
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: path.join(screenshotDir, `${shot}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 720 });
    // The server says the same to anyone who tries anyway.
    const started = await page.request.post('/api/start-verification', { data: { userId: me.userId }, headers: { Origin: baseURL! } });
    expect(started.status()).toBe(409);
    expect((await started.json()).message).toContain('soporte@perfilseguro.mx');
  };
  await expectRevoked('profile-revoked');

  // A corrected name annuls the validation, and the profile still says revoked.
  const rectification = page.getByTestId('rectification');
  await rectification.getByLabel('Nombre completo').fill('Rebeca Revocada Soto de León');
  await rectification.getByRole('button', { name: 'Guardar nombre' }).click();
  await page.getByRole('dialog', { name: '¿Cambiar tu nombre?' }).getByRole('button', { name: 'Sí, cambiar mi nombre' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Nombre actualizado' })).toBeVisible();
  await expectRevoked('profile-revoked-renamed');

  // The administrador lifts it, with a reason; the history shows the lift.
  await admin.reload();
  await admin.getByPlaceholder('Buscar usuarios...').fill(p.email);
  await row.getByRole('button', { name: /^Validación de / }).click();
  dialog = admin.getByRole('dialog', { name: /^Validación de / });
  await dialog.getByRole('button', { name: 'Levantar revocación' }).click();
  await expect(dialog.getByText('El motivo para levantar la revocación es requerido')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Motivo para levantar la revocación' }).fill('Documento aclarado con la persona');
  for (const [width, height] of [[1280, 900], [375, 812]]) {
    await admin.setViewportSize({ width, height });
    await admin.screenshot({ path: path.join(screenshotDir, `admin-lift-form-${width}.png`) });
  }
  await admin.setViewportSize({ width: 1280, height: 900 });
  await dialog.getByRole('button', { name: 'Levantar revocación' }).click();
  await expect(admin.getByTestId('toast').filter({ hasText: 'Revocación levantada' })).toBeVisible({ timeout: 15_000 });
  const events = dialog.getByTestId('lifecycle-events');
  await expect(events.locator('li').first()).toContainText('Revocación levantada');
  await expect(events.locator('li').first()).toContainText('Motivo: Documento aclarado con la persona');
  await expect(events).toContainText('Por un administrador: admin@perfilseguro.local');
  await expect(dialog.getByText('Esta validación está revocada.')).toHaveCount(0);
  for (const [width, height] of [[1280, 900], [375, 812]]) {
    await admin.setViewportSize({ width, height });
    await admin.screenshot({ path: path.join(screenshotDir, `admin-lifted-${width}.png`) });
  }
  await adminContext.close();

  // The person is told by e-mail; Mi Perfil lets them validate again, and a new check does.
  await waitForMessage(page.request, p.email, /levantamos la revocación de tu Perfil Seguro \(PS-\d{4}-\d{4}-\d{2}\)/);
  await page.goto('/profile');
  await expect(page.getByTestId('verification-badge')).toHaveText('Verificación en proceso');
  await expect(page.getByText('Validación revocada')).toHaveCount(0);
  await expect(page.getByTestId('plan-card').getByText('Plan activo')).toBeVisible();
  await approveOnSimulator(page);
  await expect(page.getByTestId('verification-badge')).toHaveText('Verificación completa', { timeout: 20_000 });
  await expect(page.getByTestId('card-status')).toHaveText('ID Validado');
});

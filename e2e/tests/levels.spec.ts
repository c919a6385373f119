import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { approveOnSimulator, giveBiometricConsent, newPerson, payByCard, registerInUI, waitForMessage } from './helpers';

// Issue 4: level 2 by the e-mail link and level 3 with the development biometric provider,
// against the real binary (worker jobs, signed webhook, reconciler-free happy path).

const screenshotDir = path.resolve(__dirname, '..', 'screenshots');

test('e-mail link gives level 2, then the simulator approves and the profile shows level 3 without a reload', async ({ page }) => {
  test.setTimeout(90_000);
  const p = newPerson('Rodrigo Niveles Soto', 'levels');
  await registerInUI(page, p);

  const card = page.getByTestId('email-verification-card');
  await card.getByRole('button', { name: 'Enviar enlace de verificación' }).click();
  await expect(card.getByText('Enlace enviado')).toBeVisible();
  const [link] = await waitForMessage(page.request, p.email, /https?:\/\/\S+\/api\/verify-email\?token=[0-9a-f]{64}/);

  await page.goto(link);
  await expect(page).toHaveURL(/\/profile\?emailVerified=1&startBiometric=1$/);
  await expect(page.getByText('Nivel 2 Completado')).toBeVisible();
  await expect(card.getByText('Email Verificado')).toBeVisible();
  await expect(page.getByText('2 de 3')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continuar con la verificación biométrica' })).toBeVisible();
  await page.screenshot({ path: path.join(screenshotDir, 'levels-email-verified.png'), fullPage: true });

  // The link works once: a second visit explains it in Spanish.
  const again = await page.request.get(link, { maxRedirects: 0 });
  expect(again.status()).toBe(410);
  expect(await again.text()).toContain('Enlace ya utilizado');

  // The biometric check is refused until the plan is paid (issue 18), then it opens.
  await expect(page.getByRole('button', { name: 'Completar Verificación' })).toBeDisabled();
  await payByCard(page);
  await giveBiometricConsent(page);
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Completar Verificación' }).click();
  const popup = await popupOpened;
  await popup.waitForURL(/\/dev\/biometric\/[0-9a-f-]{36}$/);
  await expect(popup.getByRole('button', { name: 'Aprobar' })).toBeVisible();
  await expect(popup.getByRole('button', { name: 'Rechazar' })).toBeVisible();
  await expect(popup.getByRole('button', { name: 'Enviar a revisión' })).toBeVisible();
  await popup.screenshot({ path: path.join(screenshotDir, 'levels-simulator.png'), fullPage: true });
  await popup.getByRole('button', { name: 'Aprobar' }).click();
  await popup.waitForURL(/\/return\?.*status=Approved/);
  await expect(popup.getByRole('link', { name: 'Continuar a mi perfil' })).toBeVisible();
  await popup.screenshot({ path: path.join(screenshotDir, 'levels-return.png'), fullPage: true });

  await expect(page.getByTestId('verification-badge')).toHaveText('Verificación completa', { timeout: 20_000 });
  await expect(page.getByText('Verificación exitosa')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Completar Verificación' })).toHaveCount(0);
  await expect(page.getByText('3 de 3')).toBeVisible();
  await page.screenshot({ path: path.join(screenshotDir, 'levels-complete.png'), fullPage: true });
});

test('a declined run shows the rejected-document guidance', async ({ page }) => {
  test.setTimeout(90_000);
  const p = newPerson('Rodrigo Niveles Soto', 'levels');
  await registerInUI(page, p);
  await payByCard(page);
  await giveBiometricConsent(page);

  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Completar Verificación' }).click();
  const popup = await popupOpened;
  await popup.waitForURL(/\/dev\/biometric\//);
  await popup.getByRole('button', { name: 'Rechazar' }).click();
  await popup.waitForURL(/\/return\?.*status=Declined/);
  await expect(popup.getByRole('heading', { name: 'No pudimos validar tu identidad' })).toBeVisible();

  await expect(page.getByText('Documento Rechazado')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('verification-badge')).toHaveText('Verificación en proceso');
  await expect(page.getByRole('button', { name: 'Completar Verificación' })).toBeEnabled();
  await page.screenshot({ path: path.join(screenshotDir, 'levels-declined.png'), fullPage: true });
});

test('expired or unknown e-mail links show a clear Spanish page', async ({ page }) => {
  await page.goto(`/api/verify-email?token=${'0'.repeat(64)}`);
  await expect(page.getByRole('heading', { name: 'Enlace no válido' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ir a mi perfil' })).toHaveAttribute('href', '/profile');
});

const e2eDatabase = `postgres://postgres@127.0.0.1:5432/${process.env.E2E_DATABASE ?? 'perfilseguro_e2e'}?sslmode=disable`;

test('a person whose validation expired renews it with a new check, and the public page follows', async ({ page }) => {
  test.setTimeout(120_000);
  const p = newPerson('Renata Renovación Díaz', 'renew');
  await registerInUI(page, p);
  await payByCard(page);
  await approveOnSimulator(page, 'Completar Verificación');
  await expect(page.getByTestId('verification-badge')).toHaveText('Verificación completa', { timeout: 20_000 });
  await expect(page.getByTestId('validity-alert')).toContainText(/Quedan 36[56] días de vigencia/);
  const profileId = (await page.getByTestId('digital-id-card').innerText()).match(/PS-\d{4}-\d{4}-\d{2}/)![0];

  // A year and a week later: the validity ended and the expiry job recorded it.
  execFileSync('psql', [e2eDatabase, '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-v', `phone=${p.e164}`], {
    input: `UPDATE users SET fecha_validacion = now() - interval '1 year 7 days', vigencia = 1,
      expired_at = now() - interval '7 days' WHERE phone_number = :'phone';`,
    stdio: 'pipe',
  });
  await page.goto(`/verify/${profileId}`);
  await expect(page.getByTestId('public-badge')).toHaveText('Expirado');

  await page.goto('/profile');
  const alert = page.getByTestId('validity-alert');
  await expect(alert).toContainText('Tu validación expiró');
  await expect(page.getByTestId('card-status')).toHaveText('Expirado');
  await page.screenshot({ path: path.join(screenshotDir, 'renewal-expired.png'), fullPage: true });

  // A renewal is a new purchase.
  await expect(page.getByTestId('plan-card')).toContainText('Para renovar tu validación elige y paga un plan.');
  await payByCard(page);
  await approveOnSimulator(page, 'Renovar mi validación');
  await expect(page.getByTestId('toast').filter({ hasText: 'Validación renovada' })).toBeVisible({ timeout: 20_000 });
  await expect(alert).toContainText(/Quedan 36[56] días de vigencia/);
  await expect(page.getByTestId('card-status')).toHaveText('ID Validado');
  await page.screenshot({ path: path.join(screenshotDir, 'renewal-done.png'), fullPage: true });

  await page.goto(`/verify/${profileId}`);
  await expect(page.getByTestId('public-badge')).toHaveText('Verificado');
});

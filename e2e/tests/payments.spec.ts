import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { approveOnSimulator, completeRegistration, FIVE_YEARS, newPerson, payByCard, registerInUI, startCheckout, waitForMessage, type Person } from './helpers';

// Issue 18: plans bought before the biometric check, through the local checkout stand-in that
// plays Stripe Checkout (card and OXXO) and sends Stripe-signed webhooks to the real binary.

const screenshotDir = path.resolve(__dirname, '..', 'screenshots');

/** approve opens the biometric check from Mi Perfil and approves it in the simulator. */
async function approve(page: Page) {
  await approveOnSimulator(page);
  await expect(page.getByTestId('verification-badge')).toHaveText('Verificación completa', { timeout: 20_000 });
}

/** signInAsAdmin opens a page of its own signed in to the administration panel. */
async function signInAsAdmin(browser: Browser): Promise<Page> {
  const admin = await browser.newPage();
  await admin.goto('/admin-login');
  await admin.getByLabel('Contraseña', { exact: true }).fill('admin-dev-only');
  await admin.getByRole('button', { name: 'Acceder' }).click();
  await expect(admin).toHaveURL(/\/admin$/);
  return admin;
}

/** openUserInAdmin finds p in the users table and opens the edit tab. */
async function openUserInAdmin(admin: Page, p: Person) {
  await admin.getByPlaceholder('Buscar usuarios...').fill(p.email);
  const row = admin.getByTestId('user-row');
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: `Editar ${p.name}` }).click();
}

test('the 1-year plan chosen on the landing page is paid by card and the check ends at level 3 for one year', async ({ page }) => {
  test.setTimeout(90_000);
  const p = newPerson('Paulina Pago Tarjeta', 'paycard');
  await page.goto('/');
  const tabOpened = page.waitForEvent('popup');
  await page.getByRole('link', { name: 'Elegir Validación 1 año' }).click();
  const tab = await tabOpened;
  await expect(tab).toHaveURL(/\/register\?plan=one_year$/);
  await expect(tab.getByText('Plan elegido: Validación 1 año')).toBeVisible();
  await tab.screenshot({ path: path.join(screenshotDir, 'payments-register-plan.png'), fullPage: true });
  await completeRegistration(tab, p);

  const card = tab.getByTestId('plan-card');
  await expect(card).toContainText('Elige tu plan y págalo para iniciar tu verificación biométrica.');
  await expect(card.getByRole('radio', { name: 'Validación 1 año' })).toBeChecked();
  await expect(tab.getByRole('button', { name: 'Completar Verificación' })).toBeDisabled();
  await tab.screenshot({ path: path.join(screenshotDir, 'payments-choose.png'), fullPage: true });

  await card.getByRole('button', { name: 'Pagar $299 MXN' }).click();
  await tab.waitForURL(/\/dev\/checkout\/cs_test_\w+$/);
  await expect(tab.getByText('$299.00 MXN')).toBeVisible();
  await tab.screenshot({ path: path.join(screenshotDir, 'payments-checkout.png'), fullPage: true });
  await tab.getByRole('button', { name: 'Simular tarjeta rechazada' }).click();
  await expect(tab.getByText('Tu tarjeta fue rechazada. Intenta con otra tarjeta o paga en OXXO.')).toBeVisible();
  await tab.getByRole('button', { name: 'Pagar con tarjeta' }).click();

  await tab.waitForURL(/\/profile\?pago=exito/);
  await expect(card.getByText('Pagado', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(card).toContainText('$299.00 MXN');
  await expect(card).toContainText('Tarjeta');
  await tab.screenshot({ path: path.join(screenshotDir, 'payments-paid.png'), fullPage: true });
  await waitForMessage(tab.request, p.email, /Recibimos tu pago[\s\S]*Validación 1 año[\s\S]*\$299\.00 MXN/);

  await approve(tab);
  await expect(tab.getByTestId('validity-alert')).toContainText(/Quedan 36[56] días de vigencia/);
  await expect(card).toContainText('Plan activo');
  await expect(card).toContainText('Validación 1 año');
});

test('an OXXO voucher stays pending with its reference and deadline until the cash arrives', async ({ page, context, browser }) => {
  test.setTimeout(90_000);
  const p = newPerson('Óscar Oxxo Efectivo', 'payoxxo');
  await registerInUI(page, p);
  await startCheckout(page, FIVE_YEARS);
  await expect(page.getByText('$399.00 MXN')).toBeVisible();
  await page.getByRole('button', { name: 'Pagar en efectivo en OXXO' }).click();
  await page.waitForURL(/\/profile\?pago=exito/);

  const card = page.getByTestId('plan-card');
  await expect(card.getByText('Ficha de pago OXXO')).toBeVisible({ timeout: 15_000 });
  await expect(card.getByTestId('voucher-number')).toHaveText(/^\d{14,}$/);
  await expect(card).toContainText('$399.00 MXN');
  await expect(card).toContainText('Fecha límite');
  await expect(page.getByRole('button', { name: 'Completar Verificación' })).toBeDisabled();
  await page.screenshot({ path: path.join(screenshotDir, 'payments-oxxo-pending.png'), fullPage: true });

  // The person pays at the store: the voucher page (a new tab) plays the cashier.
  const voucherOpened = context.waitForEvent('page');
  await card.getByRole('link', { name: 'Ver ficha de pago' }).click();
  const voucher = await voucherOpened;
  await expect(voucher.getByText('Ficha de pago OXXO')).toBeVisible();
  await voucher.getByRole('button', { name: 'Simular pago en tienda' }).click();
  await expect(voucher.getByText('Pago completado').first()).toBeVisible();
  await voucher.close();

  // Mi Perfil turns to paid by itself, and the person is told on WhatsApp and by e-mail.
  await expect(card.getByText('Pagado', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(card).toContainText('Efectivo en OXXO');
  await waitForMessage(page.request, p.e164, /recibimos tu pago de \$399\.00 MXN/);
  await waitForMessage(page.request, p.email, /Recibimos tu pago[\s\S]*Efectivo en OXXO/);

  // Stripe cannot refund cash: the administrator sees the payment without a refund button.
  const admin = await signInAsAdmin(browser);
  await openUserInAdmin(admin, p);
  const line = admin.getByTestId('admin-payment-row');
  await expect(line).toContainText('Efectivo en OXXO');
  await expect(line).toContainText('Sin reembolso (efectivo)');
  await expect(line.getByRole('button', { name: 'Reembolsar' })).toHaveCount(0);
  await line.scrollIntoViewIfNeeded();
  await admin.screenshot({ path: path.join(screenshotDir, 'payments-admin-oxxo.png') });
  await admin.close();

  await approve(page);
  await expect(card).toContainText('Validación 5 años');
  await expect(page.getByTestId('validity-alert')).toContainText(/Quedan 18\d\d días de vigencia/);
});

test('an expired OXXO voucher lets the person start again', async ({ page }) => {
  test.setTimeout(60_000);
  const p = newPerson('Valeria Vencida Ruiz', 'payexpired');
  await registerInUI(page, p);
  await startCheckout(page);
  await page.getByRole('button', { name: 'Pagar en efectivo en OXXO' }).click();
  await page.waitForURL(/\/profile\?pago=exito/);
  const card = page.getByTestId('plan-card');
  const link = card.getByRole('link', { name: 'Ver ficha de pago' });
  await expect(link).toBeVisible({ timeout: 15_000 });
  await page.goto((await link.getAttribute('href'))!);
  await page.getByRole('button', { name: 'Simular ficha vencida' }).click();
  await expect(page.getByText('Ficha vencida sin pago').first()).toBeVisible();

  await page.goto('/profile');
  await expect(card).toContainText('Tu ficha de pago en OXXO venció sin pago. Genera una nueva o paga con tarjeta.', { timeout: 15_000 });
  await expect(card.getByRole('button', { name: 'Pagar $299 MXN' })).toBeEnabled();
  await waitForMessage(page.request, p.e164, /venció sin pago/);
});

test('a person who came through CasaLista is never asked to pay', async ({ page, browser }) => {
  test.setTimeout(60_000);
  const p = newPerson('Carla CasaLista Gómez', 'payfree');
  await registerInUI(page, p);
  const card = page.getByTestId('plan-card');
  await expect(card).toContainText('Elige tu plan y págalo para iniciar tu verificación biométrica.');

  // An administrator records that she came through the listing marketplace.
  const admin = await signInAsAdmin(browser);
  await openUserInAdmin(admin, p);
  await admin.getByLabel('Origen').selectOption('CasaLista');
  await admin.getByRole('button', { name: 'Guardar Cambios' }).click();
  await expect(admin.getByTestId('toast')).toContainText('Usuario actualizado');
  await admin.close();

  await page.reload();
  await expect(card).toContainText('Validación gratuita');
  await expect(card).not.toContainText('$');
  await expect(card.getByRole('button', { name: /Pagar/ })).toHaveCount(0);
  await page.screenshot({ path: path.join(screenshotDir, 'payments-free.png'), fullPage: true });
  await approve(page);
  await expect(card).toContainText('Plan activo');
  const checkouts = await page.request.get('/dev/inbox.json?to=' + encodeURIComponent(p.email));
  expect(JSON.stringify(await checkouts.json())).not.toContain('Recibimos tu pago');
});

test('an administrator sees the payment and refunds it; the refund comes back from the provider', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const p = newPerson('Renato Reembolso Paz', 'payrefund');
  await registerInUI(page, p);
  await payByCard(page);

  const admin = await signInAsAdmin(browser);
  await openUserInAdmin(admin, p);
  const payments = admin.getByTestId('admin-payments');
  const line = payments.getByTestId('admin-payment-row');
  await expect(line).toHaveCount(1);
  await expect(line).toContainText('Validación 1 año');
  await expect(line).toContainText('$299.00 MXN');
  await expect(line).toContainText('Pagado');
  await line.getByRole('button', { name: 'Reembolsar' }).click();
  const dialog = admin.getByRole('alertdialog');
  await expect(dialog).toContainText('Se devolverá el importe completo por medio de Stripe.');
  await admin.screenshot({ path: path.join(screenshotDir, 'payments-admin-refund.png'), fullPage: true });
  await dialog.getByRole('button', { name: 'Sí, reembolsar' }).click();
  await expect(line).toContainText(/Reembolso solicitado|Reembolsado/);
  await expect(async () => {
    await admin.reload();
    await admin.getByPlaceholder('Buscar usuarios...').fill(p.email);
    await admin.getByTestId('user-row').getByRole('button', { name: `Editar ${p.name}` }).click();
    await expect(admin.getByTestId('admin-payment-row')).toContainText('Reembolsado', { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await admin.close();

  // The refunded plan no longer opens the biometric check: Mi Perfil asks to choose again.
  await page.goto('/profile');
  await expect(page.getByTestId('plan-card')).toContainText('Elige tu plan y págalo para iniciar tu verificación biométrica.');
  await expect(page.getByRole('button', { name: 'Completar Verificación' })).toBeDisabled();
});

import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { unzipSync, strFromU8 } from 'fflate';
import path from 'node:path';
import { giveBiometricConsent, newPerson, payByCard, reachLevel3, registerInUI, waitForMessage, type Person } from './helpers';

// Issue 25: the person's rights over their data, in Chromium against the real binary: the notice
// and the terms exist, the biometric check waits for an express consent, the data export arrives
// by e-mail and holds the person's data, a new name after level 3 sends the profile back to
// re-validation, the account is deleted after a code, and the person sees who looked them up.

const screenshotDir = path.join(__dirname, '..', 'screenshots');

type InboxItem = { text: string };

/** inbox lists the development inbox's messages to `to`, newest first. */
async function inbox(request: APIRequestContext, to: string): Promise<InboxItem[]> {
  const res = await request.get(`/dev/inbox.json?to=${encodeURIComponent(to)}`);
  return ((await res.json()) as InboxItem[] | null) ?? [];
}

/** nextCode waits for a message to `to` newer than the `before` ones and returns its 6-digit code. */
async function nextCode(request: APIRequestContext, to: string, before: number): Promise<string> {
  let code = '';
  await expect
    .poll(async () => {
      const messages = await inbox(request, to);
      if (messages.length <= before) return false;
      code = /(?<!\d)(\d{6})(?!\d)/.exec(messages[0].text)?.[1] ?? '';
      return code !== '';
    }, { timeout: 15_000 })
    .toBe(true);
  return code;
}

function myData(page: Page) {
  return page.getByTestId('my-data');
}

test('the privacy notice and the terms are pages of their own, linked from every footer', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Aviso de privacidad' }).click();
  await expect(page).toHaveURL(/\/privacidad$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Aviso de privacidad integral' })).toBeVisible();
  await expect(page.getByText(/Versión 2026-11-28.2 · vigente desde 28 de noviembre de 2026/)).toBeVisible();
  // The 2025 law's authority, by name and website (not "la autoridad competente").
  await expect(page.getByRole('heading', { level: 2, name: 'Autoridad de protección de datos' })).toBeVisible();
  await expect(page.getByRole('link', { name: /gob\.mx\/buengobierno/ })).toHaveAttribute('href', 'https://www.gob.mx/buengobierno');
  await expect(page.locator('main')).not.toContainText('la autoridad competente');
  await page.locator('section', { has: page.locator('#autoridad') }).screenshot({ path: path.join(screenshotDir, 'privacy-notice-authority.png') });
  await expect(page.getByText('Perfil Seguro, S.A. de C.V.').first()).toBeVisible();
  await expect(page.getByRole('cell', { name: '12 meses' })).toBeVisible();
  await expect(page.locator('body')).toContainText('nunca');
  await expect(page.getByRole('link', { name: 'privacidad@perfilseguro.mx' }).first()).toHaveAttribute('href', 'mailto:privacidad@perfilseguro.mx');
  await page.screenshot({ path: path.join(screenshotDir, 'privacy-notice.png'), fullPage: true });

  await page.getByRole('contentinfo').getByRole('link', { name: 'Términos y condiciones' }).click();
  await expect(page).toHaveURL(/\/terminos$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Términos y condiciones' })).toBeVisible();
  await page.screenshot({ path: path.join(screenshotDir, 'terms.png'), fullPage: true });

  // Printed, the page is the notice alone: no header or footer.
  await page.goto('/privacidad');
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('contentinfo')).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'Aviso de privacidad integral' })).toBeVisible();
  await page.emulateMedia({ media: 'screen' });

  // On a phone it reads without scrolling sideways.
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/privacidad');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: path.join(screenshotDir, 'privacy-notice-mobile.png') });

  // The registration form links both, and no placeholder link is left on the way there.
  await page.goto('/register');
  await expect(page.getByRole('link', { name: /Aviso de privacidad|aviso de privacidad/ }).first()).toHaveAttribute('href', '/privacidad');
  await expect(page.locator('a[href="#"]')).toHaveCount(0);

  // The simplified notice (LFPDPPP 2025) under the registration form: heading, who, the purposes
  // folded (necessary and voluntary), the full notice's link; on a phone it does not scroll sideways.
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width > 400 ? 900 : 740 });
    await page.goto('/register');
    const notice = page.getByTestId('simplified-notice');
    await expect(notice.getByRole('heading', { name: 'Aviso de privacidad simplificado' })).toBeVisible();
    await expect(notice).toContainText('Perfil Seguro, S.A. de C.V.');
    await expect(notice.getByRole('link', { name: /aviso de privacidad integral/ })).toHaveAttribute('href', '/privacidad');
    // Folded: the purposes wait behind "Para qué usamos tus datos", so the notice stays short on a phone.
    await expect(notice.getByRole('heading', { name: 'Finalidades necesarias' })).toBeHidden();
    await notice.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(screenshotDir, `register-simplified-notice-${width}-folded.png`) });
    await notice.getByText('Para qué usamos tus datos').click();
    await expect(notice.getByRole('heading', { name: 'Finalidades necesarias' })).toBeVisible();
    await expect(notice.getByRole('heading', { name: 'Finalidades voluntarias (puedes negarte)' })).toBeVisible();
    await expect(notice.getByText('Recordatorios de vigencia')).toBeVisible();
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(sideways).toBeLessThanOrEqual(0);
    await page.evaluate(() => window.scrollTo(0, 0)); // the sticky header stays at the top of the full-page picture
    await page.screenshot({ path: path.join(screenshotDir, `register-simplified-notice-${width}.png`), fullPage: true });
  }
});

test('the biometric check waits for an express consent, recorded with the notice version', async ({ page }) => {
  const p = newPerson('Consuelo Consentimiento Ruiz', 'consent');
  await registerInUI(page, p);
  const start = page.getByRole('button', { name: 'Completar Verificación' });
  await expect(start).toBeDisabled();
  // The cards come as the steps do: first the plan, then the consent (issue 38).
  await expect(page.getByText('Primero elige y paga tu plan.')).toBeVisible();
  await expect(page.getByTestId('biometric-consent')).toHaveCount(0);
  await payByCard(page);
  await expect(start).toBeDisabled();
  const card = page.getByTestId('biometric-consent');
  await expect(card).toContainText('nunca las imágenes');
  const box = card.getByRole('checkbox');
  await expect(box).not.toBeChecked();
  await expect(card.getByRole('button', { name: 'Otorgar consentimiento' })).toBeDisabled();
  await page.screenshot({ path: path.join(screenshotDir, 'privacy-biometric-consent.png'), fullPage: true });

  // The server refuses the check without it, whatever the page shows.
  const userId = await page.evaluate(() => localStorage.getItem('userId'));
  const refused = await page.request.post('/api/start-verification', { data: { userId: Number(userId) } });
  expect(refused.status()).toBe(409);
  expect((await refused.json()).message).toContain('consentimiento expreso');

  await giveBiometricConsent(page);
  const consents = await (await page.request.get(`/api/users/${userId}/consents`)).json();
  const biometric = consents.consents.find((c: { purpose: string }) => c.purpose === 'biometric');
  expect(biometric).toMatchObject({ granted: true, noticeVersion: '2026-11-28.2', current: true });
  // The plan is paid and the consent given: nothing stands in the way any more.
  await expect(start).toBeEnabled();
});

test('"Descargar mis datos" e-mails a single-use link to a ZIP with the person\'s data, once a day', async ({ page, request }) => {
  const p = newPerson('Dalia Descarga Mora', 'export');
  await registerInUI(page, p);
  const section = myData(page).getByTestId('data-export');
  await section.getByRole('button', { name: 'Descargar mis datos' }).click();
  // "Estamos preparando tus datos… Te enviaremos un enlace" shows only while the export is being
  // prepared; a fast worker may be done before the page looks, and then the badge says it was sent.
  await expect(section).toContainText(/Te enviaremos un enlace a tu correo electrónico|Enviado a tu correo/);

  const [link] = await waitForMessage(request, p.email, /https?:\/\/\S+\/api\/data-export\?token=[0-9a-f]{64}/);
  await expect(section.getByTestId('latest-export')).toContainText('Enviado a tu correo', { timeout: 15_000 });
  await page.screenshot({ path: path.join(screenshotDir, 'privacy-export-requested.png'), fullPage: true });

  const res = await request.get(link);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('application/zip');
  const files = unzipSync(new Uint8Array(await res.body()));
  expect(Object.keys(files).sort()).toEqual(['datos.json', 'diccionario.json', 'resumen.html']);
  const doc = JSON.parse(strFromU8(files['datos.json']));
  expect(doc.datos.perfil.email).toBe(p.email);
  expect(doc.datos.perfil.telefono).toBe(p.e164);
  expect(doc.datos.perfil.nombre).toBe(p.name);
  expect(doc.datos.consentimientos.some((c: { finalidad: string }) => c.finalidad === 'privacy_notice')).toBe(true);
  const summary = strFromU8(files['resumen.html']);
  expect(summary).toContain('Tus datos en Perfil Seguro');
  // It reads like a letter: purposes by the notice's names, times said to be Mexico City's, no column name.
  expect(summary).toContain('Aviso de privacidad');
  expect(summary).toContain('America/Mexico_City');
  expect(summary).not.toContain('privacy_notice');
  expect(summary).not.toContain('actualizado_en');
  const dictionary = JSON.parse(strFromU8(files['diccionario.json']));
  expect(dictionary.claves['datos.perfil.email']).toBeTruthy();

  const again = await request.get(link);
  expect(again.status()).toBe(410);
  expect(await again.text()).toContain('ya se usó o venció');

  await section.getByRole('button', { name: 'Descargar mis datos' }).click();
  await expect(section).toContainText('Ya pediste una copia de tus datos hoy');
});

test('a new name after level 3 warns first, then sends the profile back to re-validation', async ({ page }) => {
  test.setTimeout(150_000);
  const p: Person = newPerson('Ramiro Rectifica Peña', 'rectify');
  await reachLevel3(page, p);
  const form = myData(page).getByTestId('rectification');
  await expect(form).toContainText('Cambiar tu nombre anula tu validación biométrica.');
  await form.getByLabel('Nombre completo').fill('Ramiro Rectificado Peña');
  await form.getByRole('button', { name: 'Guardar nombre' }).click();
  const dialog = page.getByRole('alertdialog', { name: '¿Cambiar tu nombre?' });
  await expect(dialog).toBeVisible();
  await page.screenshot({ path: path.join(screenshotDir, 'privacy-rename-warning.png'), fullPage: true });
  await dialog.getByRole('button', { name: 'Sí, cambiar mi nombre' }).click();

  await expect(page.getByTestId('verification-badge')).toHaveText('Verificación en proceso', { timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Completar Verificación' })).toBeEnabled();
  await expect(page.getByTestId('digital-id-card')).toContainText('Ramiro Rectificado Peña');
  const profileId = (await page.getByTestId('digital-id-card').innerText()).match(/PS-\d{4}-\d{4}-\d{2}/)![0];
  const pub = await (await page.request.get(`/api/verify/${profileId}`)).json();
  expect(pub.profile.verificado).toBe(false);
  await page.screenshot({ path: path.join(screenshotDir, 'privacy-rename-done.png'), fullPage: true });
});

test('the person sees who looked them up, and deletes the account after a code', async ({ page, browser, request }) => {
  const p = newPerson('Elisa Elimina Vega', 'delete');
  await registerInUI(page, p);
  const profileId = (await page.getByTestId('digital-id-card').innerText()).match(/PS-\d{4}-\d{4}-\d{2}/)![0];

  // Someone opens the public page (the QR's link) from another browser.
  const stranger = await browser.newContext();
  const other = await stranger.newPage();
  await other.goto(`/verify/${profileId}`);
  await expect(other.getByText(p.name)).toBeVisible();
  await stranger.close();

  await page.reload();
  const consultations = myData(page).getByTestId('consultation');
  await expect(consultations.first()).toContainText('Página pública / QR', { timeout: 15_000 });
  await expect(myData(page)).not.toContainText('127.0.0.1');

  const before = (await inbox(request, p.e164)).length;
  const section = myData(page).getByTestId('delete-account');
  await section.getByRole('button', { name: 'Enviar código de confirmación' }).click();
  const code = await nextCode(request, p.e164, before);
  await section.getByLabel('Código de confirmación').fill(code);
  await section.getByRole('button', { name: 'Confirmar código' }).click();
  await section.getByRole('button', { name: 'Eliminar mi cuenta' }).click();
  const dialog = page.getByRole('alertdialog', { name: '¿Eliminar tu cuenta?' });
  await page.screenshot({ path: path.join(screenshotDir, 'privacy-delete-confirm.png'), fullPage: true });
  await dialog.getByRole('button', { name: 'Sí, eliminar mi cuenta' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Tu cuenta fue eliminada')).toBeVisible();

  const gone = await request.get(`/api/verify/${profileId}`);
  expect(gone.status()).toBe(404);
  const login = await request.post('/api/login', { data: { phoneNumber: p.phone } });
  expect(login.status()).toBe(404);
});

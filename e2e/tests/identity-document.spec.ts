import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { codeFor, giveBiometricConsent, newPerson, payByCard, registerInUI, waitForMessage } from './helpers';

// Issue 52: "ID Validado" certifies what the official ID says. The development stand-in plays
// the document (editable, Didit's v3 decision): a typed name that is part of the ID's gets level 3
// under the ID's name; another person's ID gets the mismatch screen, where the person may adopt
// the ID's name; a second account presenting an ID that already certifies a profile is refused.

const screenshotDir = path.resolve(__dirname, '..', 'screenshots');

/** A birth date of this run (1960-1987): no earlier run's profile holds an ID with the same CURP. */
function uniqueBirthDate(): string {
  const d = new Date(Date.UTC(1960, 0, 1) + ((Math.floor(Date.now() / 1000) % 10_000) * 86_400_000));
  return d.toISOString().slice(0, 10);
}

/** inboxCodes are the 6-digit codes already delivered to `to` (so that a new one is told apart). */
async function inboxCodes(request: APIRequestContext, to: string): Promise<string[]> {
  const res = await request.get(`/dev/inbox.json?to=${encodeURIComponent(to)}`);
  const messages = ((await res.json()) as { text: string }[] | null) ?? [];
  return messages.flatMap((m) => /(?<!\d)(\d{6})(?!\d)/.exec(m.text)?.[1] ?? []);
}

/** The document the simulator's page shows, as edited before pressing a button. */
type Edit = { given?: string; first?: string; second?: string; birth?: string; sex?: 'F' | 'M'; state?: string };

/** levelTwoAndPaid takes a registered person on Mi Perfil through the e-mail link, the plan and the consent. */
async function levelTwoAndPaid(page: Page, email: string): Promise<void> {
  await page.getByTestId('email-verification-card').getByRole('button', { name: 'Enviar enlace de verificación' }).click();
  const [link] = await waitForMessage(page.request, email, /https?:\/\/\S+\/api\/verify-email\?token=[0-9a-f]{64}/);
  await page.goto(link);
  await expect(page.getByText('Nivel 2 Completado')).toBeVisible();
  await payByCard(page);
  await giveBiometricConsent(page);
}

/** showDocument opens the simulator from Mi Perfil, edits its document and presses button (Aprobar or a case). */
async function showDocument(page: Page, edit: Edit, button = 'Aprobar'): Promise<void> {
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Completar Verificación' }).click();
  const popup = await popupOpened;
  await popup.waitForURL(/\/dev\/biometric\//);
  if (edit.given !== undefined) await popup.getByLabel('Nombre(s)').fill(edit.given);
  if (edit.first !== undefined) await popup.getByLabel('Primer apellido').fill(edit.first);
  if (edit.second !== undefined) await popup.getByLabel('Segundo apellido').fill(edit.second);
  if (edit.birth !== undefined) await popup.getByLabel('Fecha de nacimiento').fill(edit.birth);
  if (edit.sex !== undefined) await popup.getByLabel('Sexo').selectOption(edit.sex);
  if (edit.state !== undefined) await popup.getByLabel('Estado de nacimiento').selectOption(edit.state);
  await popup.getByLabel('CURP (vacía: se calcula)').fill('');
  await popup.getByRole('button', { name: button }).click();
  await popup.waitForURL(/\/return\?.*status=Approved/);
  await popup.close();
}

// One ID for the run: Ana's, shown again by the third account.
const anasID: Edit = { given: 'ANA MARÍA', first: 'RUIZ', second: 'SOTO', birth: uniqueBirthDate(), sex: 'F', state: 'JC' };
let anasEmail = '';

test.describe.serial('the identity on the document', () => {
  test('Ana Ruiz shows an INE that says ANA MARÍA RUIZ SOTO: level 3 under the ID\'s name', async ({ page, context, baseURL }) => {
    test.setTimeout(150_000);
    const p = newPerson('Ana Ruiz', 'idname');
    anasEmail = p.email;
    await registerInUI(page, p);
    await levelTwoAndPaid(page, p.email);
    await showDocument(page, anasID);

    await expect(page.getByTestId('verification-badge')).toHaveText('Verificación completa', { timeout: 20_000 });
    await expect(page.getByText('Ana María Ruiz Soto').first()).toBeVisible();
    await expect(page.getByText('Tomamos tu nombre de tu identificación oficial.')).toBeVisible();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: path.join(screenshotDir, 'identity-match-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.screenshot({ path: path.join(screenshotDir, 'identity-match-375.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    // The pass is issued in the ID's name.
    const card = page.getByTestId('digital-id-card');
    const download = page.waitForEvent('download');
    await card.getByRole('button', { name: 'Apple Wallet' }).click();
    expect((await download).suggestedFilename()).toBe('PerfilSeguroAnaMaríaRuizSoto.pkpass');

    // So is the public page.
    const qrSrc = (await card.getByRole('img', { name: /Código QR de PS-/ }).getAttribute('src'))!;
    const profileId = /PS-\d{4}-\d{4}-\d{2}/.exec(qrSrc)![0];
    const publicPage = await context.browser()!.newPage();
    await publicPage.goto(`${baseURL}/verify/${profileId}`);
    await expect(publicPage.getByTestId('public-badge')).toHaveText('Verificado');
    await expect(publicPage.getByText('Ana María Ruiz Soto')).toBeVisible();
    await expect(publicPage.getByText('Ana Ruiz', { exact: true })).toHaveCount(0);
    await publicPage.close();
  });

  test('a person showing an ID with another name sees the mismatch, adopts the ID\'s name and gets the pass', async ({ page }) => {
    test.setTimeout(150_000);
    const p = newPerson('Luis Gómez Prieto', 'idother');
    await registerInUI(page, p);
    await levelTwoAndPaid(page, p.email);
    await showDocument(page, {}, 'Caso: nombre distinto');

    await expect(page.getByText('El nombre de tu registro no coincide con el de tu identificación.')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText('Roberto Carlos Mendoza Salas').first()).toBeVisible();
    await expect(page.getByTestId('verification-badge')).not.toHaveText('Verificación completa');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: path.join(screenshotDir, 'identity-mismatch-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.screenshot({ path: path.join(screenshotDir, 'identity-mismatch-375.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    // One confirmation with a code to the person's phone, then the ID's name is theirs.
    const earlier = await inboxCodes(page.request, p.e164);
    await page.getByRole('button', { name: 'Usar el nombre de mi identificación' }).click();
    const confirmation = page.getByTestId('adopt-name-confirmation');
    await confirmation.getByRole('button', { name: 'Enviar código a mi contacto actual' }).click();
    await confirmation.getByLabel('Código de confirmación').fill(await codeFor(page.request, p.e164, earlier));
    await confirmation.getByRole('button', { name: 'Confirmar código' }).click();

    await expect(page.getByTestId('verification-badge')).toHaveText('Verificación completa', { timeout: 20_000 });
    await expect(page.getByText('Tomamos tu nombre de tu identificación oficial.')).toBeVisible();
    const download = page.waitForEvent('download');
    await page.getByTestId('digital-id-card').getByRole('button', { name: 'Apple Wallet' }).click();
    expect((await download).suggestedFilename()).toBe('PerfilSeguroRobertoCarlosMendozaSalas.pkpass');
  });

  test('a third account showing Ana\'s ID is refused, and Ana is told', async ({ page }) => {
    test.setTimeout(150_000);
    const p = newPerson('Ana Ruiz Soto', 'idtwice');
    await registerInUI(page, p);
    await levelTwoAndPaid(page, p.email);
    await showDocument(page, anasID);

    await expect(page.getByText('Esta identificación ya está vinculada a otro perfil.')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('verification-badge')).not.toHaveText('Verificación completa');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: path.join(screenshotDir, 'identity-duplicate-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.screenshot({ path: path.join(screenshotDir, 'identity-duplicate-375.png'), fullPage: true });

    // Ana hears that someone tried, without being told who.
    const [notice] = await waitForMessage(page.request, anasEmail, /una identificación valida un solo perfil/);
    expect(notice).toBeTruthy();
  });
});

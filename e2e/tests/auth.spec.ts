import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { codeFor, newPerson, readLatestCode, type Person } from './helpers';

// Issue 3: registration, sign-in by phone or e-mail, code verification, profile and logout,
// against the real binary (codes are delivered by the worker to the development inbox).

/** somebody is a new person for one test. */
const somebody = () => newPerson('Mariana Pruebas Ruiz', 'e2e');

const screenshotDir = path.resolve(__dirname, '..', 'screenshots');
// The app's own origin (playwright.config.ts; E2E_PORT overrides the port).
const ownOrigin = `http://127.0.0.1:${process.env.E2E_PORT ?? 8089}`;

interface InboxJSON {
  id: number;
  channel: string;
  to: string;
  subject?: string;
  text: string;
  createdAt: string;
}

/** inboxFor lists the development inbox messages sent to one recipient, newest first. */
async function inboxFor(request: APIRequestContext, to: string): Promise<InboxJSON[]> {
  const res = await request.get(`/dev/inbox.json?to=${encodeURIComponent(to)}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as InboxJSON[] | null) ?? [];
}

/**
 * signUpByAPI registers and verifies a person through the real endpoints in a request context of
 * its own (no cookie reaches the browser), so the account exists with its phone verified.
 */
async function signUpByAPI(request: APIRequestContext, p: Person): Promise<number> {
  const reg = await request.post('/api/register', { data: { fullName: p.name, email: p.email, phoneNumber: p.e164 } });
  expect(reg.status(), await reg.text()).toBe(201);
  const { sessionToken } = (await reg.json()) as { sessionToken: string };
  const code = await codeFor(request, p.e164);
  const ver = await request.post('/api/verify-code', { data: { sessionToken, code } });
  expect(ver.status(), await ver.text()).toBe(200);
  return ((await ver.json()) as { userId: number }).userId;
}

/** signedUpByAPI signs somebody up (signUpByAPI) and returns them with the code that sign-up used. */
async function signedUpByAPI(request: APIRequestContext): Promise<{ p: Person; used: string }> {
  const p = somebody();
  await signUpByAPI(request, p);
  return { p, used: await codeFor(request, p.e164) };
}

/** requestSignInCode asks /login for a code to p's phone and waits for /verify-code. */
async function requestSignInCode(page: Page, p: Person) {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Teléfono WhatsApp' }).pressSequentially(p.phone);
  await page.getByRole('button', { name: 'Enviar código' }).click();
  await expect(page).toHaveURL(/\/verify-code$/);
}

/** header is the site header (role banner). */
function header(page: Page) {
  return page.getByRole('banner');
}

async function expectSignedOutHeader(page: Page) {
  await expect(header(page).getByRole('link', { name: 'Iniciar Sesión' })).toBeVisible();
  await expect(header(page).getByRole('link', { name: 'Registrarse' })).toBeVisible();
  await expect(header(page).getByRole('link', { name: 'Mi Perfil' })).toHaveCount(0);
}

async function expectSignedInHeader(page: Page) {
  await expect(header(page).getByRole('link', { name: 'Mi Perfil' })).toBeVisible();
  await expect(header(page).getByRole('link', { name: 'Iniciar Sesión' })).toHaveCount(0);
}

/** fillRegistration completes step 1 of /register and submits it. */
async function fillRegistration(page: Page, p: Person) {
  await page.goto('/register');
  await page.getByLabel('Nombre completo').fill(p.name);
  await page.getByLabel('Correo electrónico').fill(p.email);
  await page.getByLabel('Número de WhatsApp').fill(p.phone);
  await page.getByRole('button', { name: 'Continuar' }).click();
}

function toast(page: Page) {
  return page.getByTestId('toast');
}

test('registration: the code from /dev/inbox signs the person in and /profile shows level 1 in progress', async ({ page }) => {
  const p = somebody();
  await page.goto('/register');
  await expect(page.getByRole('heading', { name: 'Registro', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Registra tus datos' })).toBeVisible();
  await expectSignedOutHeader(page);
  await page.screenshot({ path: path.join(screenshotDir, 'auth-register.png'), fullPage: true });

  await fillRegistration(page, p);
  // One toast at a time (SPEC §9): outside production the 'Código para pruebas' toast replaces 'Código enviado'.
  const verify = page.getByRole('button', { name: 'Verificar código' });
  await expect(verify).toBeDisabled();
  await expect(page.getByText(p.e164)).toBeVisible();

  // Outside production the server also returns the code, shown as 'Código para pruebas'.
  const code = await readLatestCode(page, p.e164);
  await expect(page.getByText('Código para pruebas')).toBeVisible();
  await expect(toast(page)).toContainText(code);

  await page.getByLabel('Código de verificación').fill(code);
  await expect(verify).toBeEnabled();
  await page.screenshot({ path: path.join(screenshotDir, 'auth-register-code.png'), fullPage: true });
  await verify.click();
  await expect(toast(page)).toContainText('Tu número de WhatsApp quedó verificado (Nivel 1).');
  await expect(toast(page)).not.toContainText('Tu identidad ha sido verificada');
  await expect(page).toHaveURL(/\/profile$/);

  await expect(page.getByRole('heading', { name: 'Mi Perfil' })).toBeVisible();
  await expect(page.getByTestId('verification-badge')).toHaveText('Verificación en proceso');
  await expect(page.getByRole('button', { name: 'Completar Verificación' })).toBeVisible();
  await expect(page.getByText(p.name).first()).toBeVisible();
  await expect(page.getByText(p.email).first()).toBeVisible();
  await expect(page.getByText(/PS-\d{4}-\d{4}-\d{2}/).first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'soporte@perfilseguro.mx' })).toBeVisible();
  await expectSignedInHeader(page);

  // Browser storage of SPEC §3: userId kept, the registration token gone; the server session agrees.
  const storage = await page.evaluate(() => ({ userId: localStorage.getItem('userId'), temp: localStorage.getItem('registerTempId') }));
  expect(storage.userId).toMatch(/^\d+$/);
  expect(storage.temp).toBeNull();
  const status = await page.request.get('/api/auth/status');
  expect(status.status()).toBe(200);
  expect(await status.json()).toMatchObject({ authenticated: true, userId: Number(storage.userId), verificationLevel: 1 });
  await page.screenshot({ path: path.join(screenshotDir, 'auth-profile.png'), fullPage: true });
});

test("an account with no verified phone shows 'Pendiente de verificación' and the e-mail card asks for level 1", async ({ page, request }) => {
  // The widget creates accounts from an e-mail alone; e-mail codes sign in without verifying a phone.
  const email = somebody().email;
  const created = await request.post('/api/widget/login', { data: { email }, headers: { Origin: ownOrigin } });
  expect(created.status(), await created.text()).toBe(200);
  const { sessionToken } = (await created.json()) as { sessionToken: string };
  const first = await codeFor(request, email);
  expect((await request.post('/api/verify-code', { data: { sessionToken, code: first } })).status()).toBe(200);

  await page.goto('/login');
  await page.getByLabel('Correo electrónico (opcional)').fill(email);
  await page.getByRole('button', { name: 'Enviar código' }).click();
  await expect(page).toHaveURL(/\/verify-code$/);
  await page.getByLabel('Código de verificación').fill(await codeFor(request, email, [first]));
  await page.getByRole('button', { name: 'Verificar Código' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByTestId('verification-badge')).toHaveText('Pendiente de verificación');
  await expect(page.getByText('Requiere Nivel 1')).toBeVisible();
  await expect(page.getByText('Nombre').locator('xpath=following-sibling::dd')).toHaveText('N/A');
  await expect(page.getByRole('button', { name: 'Completar Verificación' })).toBeVisible();
  await page.screenshot({ path: path.join(screenshotDir, 'auth-profile-pending.png'), fullPage: true });
});

test('sign-in with the WhatsApp phone only', async ({ page, request }) => {
  const { p, used } = await signedUpByAPI(request);

  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Iniciar Sesión' })).toBeVisible();
  await page.screenshot({ path: path.join(screenshotDir, 'auth-login.png'), fullPage: true });
  const phone = page.getByRole('textbox', { name: 'Teléfono WhatsApp' });
  await expect(phone).toHaveValue('+52');
  await phone.pressSequentially(p.phone);
  await page.getByRole('button', { name: 'Enviar código' }).click();
  await expect(page.getByRole('button', { name: 'Enviando código...' })).toBeVisible();
  await expect(toast(page)).toContainText('Código de verificación enviado por WhatsApp');
  const stored = await page.evaluate(() => ({
    pending: localStorage.getItem('pendingUserId'),
    email: localStorage.getItem('loginEmail'),
    phone: localStorage.getItem('loginPhone'),
  }));
  expect(stored).toEqual({ pending: expect.stringMatching(/^\d+$/), email: '', phone: p.e164 });
  await expect(page).toHaveURL(/\/verify-code$/);

  await expect(page.getByText(`enviamos por WhatsApp a ${p.e164}`)).toBeVisible();
  const code = await codeFor(request, p.e164, [used]);
  const input = page.getByLabel('Código de verificación');
  await input.pressSequentially(`ab${code}9`); // digits only, at most 6
  await expect(input).toHaveValue(code);
  await page.screenshot({ path: path.join(screenshotDir, 'auth-verify-code.png'), fullPage: true });
  await page.getByRole('button', { name: 'Verificar Código' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByTestId('verification-badge')).toHaveText('Verificación en proceso');
  await expectSignedInHeader(page);
  const keys = await page.evaluate(() => ['pendingUserId', 'loginEmail', 'loginPhone'].map((k) => localStorage.getItem(k)));
  expect(keys).toEqual([null, null, null]);
});

test('sign-in with the e-mail only: the code arrives at the address', async ({ page, request }) => {
  const p = somebody();
  await signUpByAPI(request, p);
  const whatsappBefore = (await inboxFor(request, p.e164)).length;

  await page.goto('/login');
  await page.getByLabel('Correo electrónico (opcional)').fill(`  ${p.email.toUpperCase()} `);
  await page.getByRole('button', { name: 'Enviar código' }).click();
  await expect(toast(page)).toContainText('Código de verificación enviado a tu correo electrónico');
  await expect(page).toHaveURL(/\/verify-code$/);
  await expect(page.getByText(`enviamos por correo electrónico a ${p.email.toUpperCase()}`)).toBeVisible();

  const code = await codeFor(request, p.email);
  const mail = (await inboxFor(request, p.email))[0];
  expect(mail.channel).toBe('email');
  expect((await inboxFor(request, p.e164)).length).toBe(whatsappBefore); // nothing sent by WhatsApp

  await page.getByLabel('Código de verificación').fill(code);
  await page.getByRole('button', { name: 'Verificar Código' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByText(p.email).first()).toBeVisible();
  await expectSignedInHeader(page);
});

test("a wrong code shows 'Código de verificación incorrecto' on registration and on sign-in", async ({ page, request }) => {
  const p = somebody();
  await fillRegistration(page, p);
  const code = await codeFor(request, p.e164);
  const wrong = `${(Number(code[0]) + 1) % 10}${code.slice(1)}`;

  await page.getByLabel('Código de verificación').fill(wrong);
  await page.getByRole('button', { name: 'Verificar código' }).click();
  await expect(toast(page)).toContainText('Error de Verificación');
  await expect(toast(page)).toContainText('Código de verificación incorrecto');
  await expect(page).toHaveURL(/\/register$/);

  // The right code still works after one wrong try.
  await page.getByLabel('Código de verificación').fill(code);
  await page.getByRole('button', { name: 'Verificar código' }).click();
  await expect(page).toHaveURL(/\/profile$/);

  // Sign-in path: server message in the error toast, still on /verify-code.
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/$/);
  await requestSignInCode(page, p);
  const loginCode = await codeFor(request, p.e164, [code]);
  await page.getByLabel('Código de verificación').fill(`${(Number(loginCode[0]) + 1) % 10}${loginCode.slice(1)}`);
  await page.getByRole('button', { name: 'Verificar Código' }).click();
  await expect(toast(page)).toContainText('Código de verificación incorrecto');
  await expect(page).toHaveURL(/\/verify-code$/);
});

test('/verify-code without a pending sign-in goes back to /login', async ({ page }) => {
  await page.goto('/verify-code');
  await expect(page).toHaveURL(/\/login$/);
});

test('logout returns the header to the signed-out state and ends the server session', async ({ page, request }) => {
  const { p, used } = await signedUpByAPI(request);
  await requestSignInCode(page, p);
  await page.getByLabel('Código de verificación').fill(await codeFor(request, p.e164, [used]));
  await page.getByRole('button', { name: 'Verificar Código' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expectSignedInHeader(page);
  expect((await page.request.get('/api/auth/status')).status()).toBe(200);

  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expectSignedOutHeader(page);
  expect(await page.evaluate(() => [localStorage.getItem('userId'), localStorage.getItem('userData')])).toEqual([null, null]);
  expect((await page.request.get('/api/auth/status')).status()).toBe(401);

  // The profile is no longer reachable: with no stored id it sends the visitor to /register.
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/register$/);
});

test('registering a phone that already has an account goes through the conflict flow to the verify step', async ({ page, request }) => {
  const { p: owner, used } = await signedUpByAPI(request);

  // Same phone, another e-mail: 409, then a new code via the widget login, then the verify step.
  const again: Person = { ...somebody(), phone: owner.phone, e164: owner.e164 };
  const conflict = page.waitForResponse((r) => r.url().endsWith('/api/register'));
  const widget = page.waitForResponse((r) => r.url().endsWith('/api/widget/login'));
  await fillRegistration(page, again);
  const conflictRes = await conflict;
  expect(conflictRes.status()).toBe(409);
  expect(await conflictRes.json()).toMatchObject({
    message: 'El correo electrónico o el número de teléfono ya está registrado.',
    existingUserId: expect.any(Number),
  });
  expect((await widget).status()).toBe(200);
  await expect(toast(page)).toContainText('Se envió un nuevo código de verificación a tu WhatsApp.');
  await expect(page.getByRole('button', { name: 'Verificar código' })).toBeVisible();

  const code = await codeFor(request, owner.e164, [used]);
  // The code goes to the account's own phone only, never to the e-mail typed in the form.
  expect(await inboxFor(request, again.email)).toEqual([]);
  await page.getByLabel('Código de verificación').fill(code);
  await page.getByRole('button', { name: 'Verificar código' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  // Signed in to the existing account, whose data did not change.
  await expect(page.getByText(owner.email).first()).toBeVisible();
  await expect(page.getByTestId('verification-badge')).toHaveText('Verificación en proceso');
});

test('registering the same e-mail and phone again also reaches the verify step and the new code works', async ({ page, request }) => {
  const { p: owner, used } = await signedUpByAPI(request);

  await fillRegistration(page, owner);
  await expect(page.getByRole('button', { name: 'Verificar código' })).toBeVisible();
  const code = await codeFor(request, owner.e164, [used]);
  await page.getByLabel('Código de verificación').fill(code);
  await page.getByRole('button', { name: 'Verificar código' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByText(owner.email).first()).toBeVisible();
});

import path from 'node:path';
import { expect, test } from '@playwright/test';
import { useSecondServer } from '../second-server';

// Issue 36, item 7: a partner's first console user, invited by an administrator, enrols a
// passkey (Chromium's virtual authenticator), signs in with it alone, makes a test secret key that
// is shown once and works against the partner API, then revokes it: the API refuses it at once
// (within the key cache's 10 s). WebAuthn needs a host name, so this runs on a second server on
// localhost, as passkeys.spec.ts does.

const screenshotDir = path.resolve(__dirname, '..', 'screenshots');

test.describe('partner console', () => {
  const server = useSecondServer({ offset: 4, suffix: 'socios', host: 'localhost' });

  test('an invited partner user enrols a passkey, signs in with it, makes a secret key that works once shown, and revokes it', async ({ page, playwright }) => {
    test.setTimeout(90_000);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });

    // The administrator makes the partner and invites its owner (development password sign-in).
    const admin = await playwright.request.newContext({ baseURL: server.baseURL, extraHTTPHeaders: { Origin: server.baseURL } });
    expect((await admin.post('/api/admin/login', { data: { password: 'admin-dev-only' } })).status()).toBe(200);
    const created = await admin.post('/api/admin/partners', { data: { partnerName: 'CasaLista Consola', domain: 'https://consola.casalista.example' } });
    expect(created.status(), await created.text()).toBe(201);
    const partner = (await created.json()) as { id: number };
    const invited = await admin.post(`/api/admin/partners/${partner.id}/users`,
      { data: { email: 'laura@casalista.example', name: 'Laura Ríos', role: 'propietario' } });
    expect(invited.status(), await invited.text()).toBe(201);
    const { enrolmentUrl } = (await invited.json()) as { enrolmentUrl: string };
    await admin.dispose();

    // Enrolment with the link: a passkey, then the console.
    await page.goto(enrolmentUrl);
    await page.getByRole('button', { name: 'Crear llave de acceso' }).click();
    await expect(page.getByRole('heading', { name: 'CasaLista Consola' })).toBeVisible({ timeout: 15_000 });

    // Out, and back in with the passkey alone.
    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await page.getByRole('button', { name: 'Entrar con llave de acceso' }).click();
    await expect(page.getByRole('heading', { name: 'CasaLista Consola' })).toBeVisible({ timeout: 15_000 });

    // A test secret key, shown once.
    await page.getByRole('button', { name: 'Crear llave secreta' }).click();
    const dialog = page.getByTestId('secret-dialog');
    await expect(dialog).toContainText('Guárdala ahora: no volverás a verla.');
    const secret = (await dialog.getByTestId('secret-value').textContent())!.trim();
    expect(secret).toMatch(/^sk_test_[0-9a-f]{48}$/);
    await page.screenshot({ path: path.join(screenshotDir, 'partner-console-secret.png') });
    await dialog.getByRole('button', { name: 'Entendido' }).click();
    await expect(page.getByText(secret)).toHaveCount(0);

    // The partner's server uses it.
    const partnerServer = await playwright.request.newContext({ baseURL: server.baseURL, extraHTTPHeaders: { Authorization: `Bearer ${secret}` } });
    const session = await partnerServer.post('/api/partner/v1/verification-sessions',
      { data: { reference: 'consola-1', requiredLevel: 2, claims: ['name'] } });
    expect(session.status(), await session.text()).toBe(201);
    expect(((await session.json()) as { livemode: boolean }).livemode).toBe(false);

    // Revoked in the console: the API refuses it (the key cache keeps it at most 10 s).
    const hint = `sk_test_…${secret.slice(-4)}`;
    await page.getByRole('button', { name: `Revocar ${hint}` }).click();
    await page.getByRole('button', { name: 'Revocar llave' }).click();
    await expect(page.getByTestId('key-row').filter({ hasText: hint })).toContainText(/Revocada/);
    await expect
      .poll(async () => (await partnerServer.get('/api/partner/v1/verification-sessions')).status(), { timeout: 15_000, intervals: [1000] })
      .toBe(401);
    await partnerServer.dispose();
  });
});

import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { devServerEnv } from '../server-env';
import { newPerson, registerInUI } from './helpers';

// Issue 26, passkeys for people, in Chromium's virtual authenticator (CDP WebAuthn domain).
// WebAuthn refuses an IP address as relying party (browsers and go-webauthn alike), and the
// suite's server is http://127.0.0.1:…; so this spec starts the same binary beside it with
// PUBLIC_BASE_URL=http://localhost:…, on its own database and Redis DB, as payments-off does.

const port = Number(process.env.E2E_PORT ?? 8089) + 2;
const baseURL = `http://localhost:${port}`;
const database = `${process.env.E2E_DATABASE ?? 'perfilseguro_e2e'}_llaves`;
const redisDB = Number(process.env.E2E_REDIS_DB ?? 5) + 2;
const screenshotDir = path.resolve(__dirname, '..', 'screenshots');
let server: ChildProcess | undefined;

/** flushRedisDB empties Redis DB n (no redis-cli needed). */
function flushRedisDB(n: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(6379, '127.0.0.1', () => socket.write(`SELECT ${n}\r\nFLUSHDB\r\n`));
    let replies = '';
    socket.on('data', (chunk) => {
      replies += chunk.toString();
      if ((replies.match(/\r\n/g) ?? []).length >= 2) {
        socket.end();
        if (replies.startsWith('+OK\r\n+OK')) resolve();
        else reject(new Error(`Redis answered ${JSON.stringify(replies)}`));
      }
    });
    socket.on('error', reject);
  });
}

/** inboxCount is how many development-inbox messages went to `to`. */
async function inboxCount(request: APIRequestContext, to: string): Promise<number> {
  const res = await request.get(`/dev/inbox.json?to=${encodeURIComponent(to)}`);
  expect(res.status()).toBe(200);
  return (((await res.json()) as unknown[] | null) ?? []).length;
}

test.describe('passkeys', () => {
  test.use({ baseURL });

  test.beforeAll(async () => {
    test.setTimeout(90_000);
    execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', 'postgres', '-w', '-X', '-q', '-v', 'ON_ERROR_STOP=1',
      '-c', `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`, '-c', `CREATE DATABASE ${database}`], { stdio: 'pipe' });
    await flushRedisDB(redisDB);
    const log = openSync(path.resolve(__dirname, '..', 'server-llaves.log'), 'w');
    server = spawn(path.resolve(__dirname, '..', '..', 'bin', 'perfilseguro'), ['dev'], {
      env: { ...process.env, ...devServerEnv({ port, database, redisDB }), PUBLIC_BASE_URL: baseURL },
      stdio: ['ignore', log, log],
    });
    await expect
      .poll(async () => fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.status, () => 0), { timeout: 60_000 })
      .toBe(200);
  });

  test.afterAll(async () => {
    if (!server) return;
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  });

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
});

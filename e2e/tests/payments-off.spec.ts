import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { devServerEnv } from '../server-env';
import { approveOnSimulator, giveBiometricConsent, newPerson, registerInUI } from './helpers';

// Issue 18, the partner-paid deployment: the same binary started with PAYMENTS=off beside the
// suite's server, on its own database and Redis DB. Every validation is free and no screen
// speaks of prices.

const port = Number(process.env.E2E_PORT ?? 8089) + 1;
const baseURL = `http://127.0.0.1:${port}`;
const database = `${process.env.E2E_DATABASE ?? 'perfilseguro_e2e'}_sin_pagos`;
const redisDB = Number(process.env.E2E_REDIS_DB ?? 5) + 1;
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

test.describe('with PAYMENTS=off', () => {
  test.use({ baseURL });

  test.beforeAll(async () => {
    test.setTimeout(90_000);
    execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', 'postgres', '-w', '-X', '-q', '-v', 'ON_ERROR_STOP=1',
      '-c', `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`, '-c', `CREATE DATABASE ${database}`], { stdio: 'pipe' });
    await flushRedisDB(redisDB);
    const log = openSync(path.resolve(__dirname, '..', 'server-sin-pagos.log'), 'w');
    server = spawn(path.resolve(__dirname, '..', '..', 'bin', 'perfilseguro'), ['dev'], {
      env: { ...process.env, ...devServerEnv({ port, database, redisDB }), PAYMENTS: 'off' },
      stdio: ['ignore', log, log],
    });
    await expect
      .poll(async () => fetch(`${baseURL}/healthz`).then((r) => r.status, () => 0), { timeout: 60_000 })
      .toBe(200);
  });

  test.afterAll(async () => {
    if (!server) return;
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  });

  test('no screen shows a price, and the biometric check opens without paying', async ({ page }) => {
    test.setTimeout(90_000);
    const plans = await page.request.get('/api/plans');
    expect(await plans.json()).toEqual({ paymentsEnabled: false, plans: [] });

    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('#que-es')).toBeVisible();
    await expect(page.locator('#precios')).toHaveCount(0);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Precios' })).toHaveCount(0);
    await expect(page.locator('body')).not.toContainText('MXN');
    await page.screenshot({ path: path.join(screenshotDir, 'payments-off-landing.png'), fullPage: true });

    // A plan carried from an old link is ignored: no price on the registration form either.
    await page.goto('/register?plan=one_year');
    await expect(page.getByLabel('Nombre completo')).toBeVisible();
    await expect(page.locator('body')).not.toContainText('Plan elegido');

    const p = newPerson('Fernanda Sin Pagos', 'sinpagos');
    await registerInUI(page, p);
    await expect(page.getByTestId('plan-card')).toHaveCount(0);
    await expect(page.locator('body')).not.toContainText('MXN');
    const start = page.getByRole('button', { name: 'Completar Verificación' });
    await expect(start).toBeDisabled(); // no price stands in the way, only the express consent
    await giveBiometricConsent(page);
    await expect(start).toBeEnabled();
    await page.screenshot({ path: path.join(screenshotDir, 'payments-off-profile.png'), fullPage: true });

    await approveOnSimulator(page);
    await expect(page.getByTestId('verification-badge')).toHaveText('Verificación completa', { timeout: 20_000 });
    await expect(page.getByTestId('validity-alert')).toContainText(/Quedan 36[56] días de vigencia/);
    await expect(page.locator('body')).not.toContainText('MXN');
  });
});

import path from 'node:path';
import { expect, test } from '@playwright/test';
import { useSecondServer } from '../second-server';
import { approveOnSimulator, giveBiometricConsent, newPerson, registerInUI } from './helpers';

// Issue 18, the partner-paid deployment: the same binary started with PAYMENTS=off beside the
// suite's server, on its own database and Redis DB. Every validation is free and no screen
// speaks of prices.

const screenshotDir = path.resolve(__dirname, '..', 'screenshots');

test.describe('with PAYMENTS=off', () => {
  useSecondServer({ offset: 1, suffix: 'sin_pagos', env: { PAYMENTS: 'off' } });

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

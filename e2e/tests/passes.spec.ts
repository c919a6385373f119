import path from 'node:path';
import { expect, test } from '@playwright/test';
import { newPerson, reachLevel3 } from './helpers';

// Issue 5: a person reaches level 3 through the development biometric provider, then sees the
// card with our own QR, downloads the Apple pass, gets the Google Wallet link, downloads the QR
// from the validated-profile screen, and the QR's link opens the public page with 'Verificado'.

const screenshotDir = path.resolve(__dirname, '..', 'screenshots');

test('a level-3 person gets the QR, the Apple pass, the Google link and a public page that says Verificado', async ({ page, context, baseURL }) => {
  test.setTimeout(120_000);
  const p = newPerson('Lucía Pases Ortega', 'passes');
  await reachLevel3(page, p);

  // The card shows our own QR image (never a third-party service).
  const card = page.getByTestId('digital-id-card');
  const qr = card.getByRole('img', { name: /Código QR de PS-/ });
  await expect(qr).toBeVisible();
  const qrSrc = (await qr.getAttribute('src'))!;
  const profileId = /PS-\d{4}-\d{4}-\d{2}/.exec(qrSrc)![0];
  expect(qrSrc).toBe(`/api/qr/${profileId}.png`);
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(100);
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(screenshotDir, 'passes-profile-card.png'), fullPage: true });

  // Apple Wallet: the signed .pkpass downloads with the spec's name.
  const download = page.waitForEvent('download');
  await card.getByRole('button', { name: 'Apple Wallet' }).click();
  const pass = await download;
  expect(pass.suggestedFilename()).toBe('PerfilSeguroLucíaPasesOrtega.pkpass');
  const passPath = await pass.path();
  const fs = await import('node:fs');
  const bytes = fs.readFileSync(passPath);
  expect(bytes.subarray(0, 2).toString()).toBe('PK'); // a zip archive
  expect(bytes.includes(Buffer.from('manifest.json'))).toBe(true);
  expect(bytes.includes(Buffer.from('signature'))).toBe(true);

  // Google Wallet: the save link opens in a new tab (answered locally: the machine is offline).
  await context.route('https://pay.google.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>Google Wallet</title><h1>Google Wallet</h1>' }),
  );
  const tabOpened = page.waitForEvent('popup');
  await card.getByRole('button', { name: 'Google Wallet' }).click();
  const tab = await tabOpened;
  await tab.waitForLoadState();
  expect(tab.url()).toMatch(/^https:\/\/pay\.google\.com\/gp\/v\/save\/[\w-]+\.[\w-]+\.[\w-]+$/);
  const jwtPayload = JSON.parse(Buffer.from(tab.url().split('/save/')[1].split('.')[1], 'base64url').toString());
  expect(jwtPayload.typ).toBe('savetowallet');
  expect(JSON.stringify(jwtPayload.payload.genericObjects)).toContain(`/verify/${profileId}`);
  await tab.close();

  // The validated-profile variant: 'Descargar mi QR' saves {ID}.png.
  await page.goto('/profile/validated');
  await expect(page.getByRole('heading', { name: 'Perfil validado correctamente' })).toBeVisible();
  const qrDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Descargar mi QR' }).click();
  expect((await qrDownload).suggestedFilename()).toBe(`${profileId}.png`);
  await expect(page.getByText('QR descargado correctamente')).toBeVisible();
  await page.screenshot({ path: path.join(screenshotDir, 'passes-validated-profile.png'), fullPage: true });

  // The QR's link is the public page, which anyone can open.
  const publicPage = await context.browser()!.newPage();
  await publicPage.goto(`${baseURL}/verify/${profileId}`);
  await expect(publicPage.getByTestId('public-badge')).toHaveText('Verificado');
  await expect(publicPage.getByText(p.name)).toBeVisible();
  await expect(publicPage.getByText(`+52 •• •••• ${p.phone.slice(-4)}`)).toBeVisible();
  await expect(publicPage.getByText(`p•••@example.com`)).toBeVisible();
  await expect(publicPage.getByText('Nivel 3 de 3')).toBeVisible();
  await publicPage.screenshot({ path: path.join(screenshotDir, 'passes-public-verified.png'), fullPage: true });
  await publicPage.close();
});

test('the public page explains malformed and unknown profile IDs', async ({ page }) => {
  await page.goto('/verify/PS-123');
  await expect(page.getByText('ID de perfil no válido')).toBeVisible();
  await page.goto('/verify/PS-0000-0000-00');
  await expect(page.getByText('No se pudo verificar el perfil')).toBeVisible();
  await expect(page.getByText('No se encontró ningún perfil con ese ID.')).toBeVisible();
  await page.screenshot({ path: path.join(screenshotDir, 'passes-public-unknown.png'), fullPage: true });
});

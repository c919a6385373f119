import { expect, test, type APIRequestContext } from '@playwright/test';
import { ES256, digest } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { newPerson, reachLevel3 } from './helpers';

// Issue 17: credentials the server issues are checked by an implementation not written here, the
// OpenWallet Foundation's @sd-jwt/sd-jwt-vc: the signature against the published keys (by kid),
// the disclosure digests, the expiry and the status list. Tampered, expired, wrong-key and
// revoked credentials are each refused, with the reason.

type JWK = { kid: string } & Record<string, unknown>;

/** verifierWith checks an ES256 signature with the key the JWT header names, among keys. */
function verifierWith(keys: JWK[]) {
  return async (data: string, signature: string) => {
    const header = JSON.parse(Buffer.from(data.split('.')[0], 'base64url').toString());
    const jwk = keys.find((k) => k.kid === header.kid);
    if (!jwk) return false;
    return (await ES256.getVerifier(jwk))(data, signature);
  };
}

/** sdjwtVC is a verifier as a third party would set it up from our public documents. */
function sdjwtVC(request: APIRequestContext, keys: JWK[]) {
  const verifier = verifierWith(keys);
  return new SDJwtVcInstance({
    hasher: digest,
    verifier,
    statusVerifier: verifier,
    statusListFetcher: async (uri: string) => (await request.get(uri)).text(),
  });
}

async function publishedKeys(request: APIRequestContext): Promise<JWK[]> {
  const res = await request.get('/.well-known/jwt-vc-issuer');
  expect(res.ok()).toBe(true);
  return (await res.json()).jwks.keys;
}

test('an issued credential passes an independent SD-JWT VC verifier, and tampered, expired, wrong-key and revoked ones do not', async ({ page, request, baseURL }) => {
  test.setTimeout(120_000);
  const p = newPerson('Marta Credencial Ríos', 'credential');
  await reachLevel3(page, p);

  const issued = await page.request.post('/api/credentials', { data: {}, headers: { Origin: baseURL! } });
  expect(issued.status()).toBe(200);
  const { credential, id } = await issued.json();
  const keys = await publishedKeys(request);
  const vc = sdjwtVC(request, keys);

  const ok = await vc.verify(credential);
  expect(ok.header?.typ).toBe('dc+sd-jwt');
  expect(ok.payload.iss).toBe(baseURL);
  expect(ok.payload.vct).toBe(`${baseURL}/credentials/identidad-validada`);
  expect(ok.payload.profile_id).toMatch(/^PS-\d{4}-\d{4}-\d{2}$/);
  expect(ok.payload.verification_level).toBe(3);
  expect(ok.payload.name).toBe('Marta Credencial Ríos');
  expect(ok.payload.status?.status_list.uri).toBe(`${baseURL}/api/credentials/status/1`);

  // A presentation with the name only: the library's own presentation of our credential.
  const onlyName = await vc.present(credential, { name: true });
  const shown = await vc.verify(onlyName);
  expect(shown.payload.name).toBe('Marta Credencial Ríos');
  expect(shown.payload).not.toHaveProperty('origin');
  expect(shown.payload).not.toHaveProperty('validated_at');

  // Tampered: one character of the signed payload changed.
  const [jwt, ...disclosures] = credential.split('~');
  const [h, body, sig] = jwt.split('.');
  const forged = JSON.parse(Buffer.from(body, 'base64url').toString());
  forged.verification_level = 4;
  const tampered = [[h, Buffer.from(JSON.stringify(forged)).toString('base64url'), sig].join('.'), ...disclosures].join('~');
  await expect(vc.verify(tampered)).rejects.toThrow(/signature/i);

  // Wrong key: a verifier that trusts another issuer's key under our kid.
  const stranger = await ES256.generateKeyPair();
  const impostor = sdjwtVC(request, keys.map((k) => ({ ...stranger.publicKey, kid: k.kid })));
  await expect(impostor.verify(credential)).rejects.toThrow(/signature/i);

  // Expired: checked at a moment after its exp.
  await expect(vc.verify(credential, { currentDate: (ok.payload.exp as number) + 60 })).rejects.toThrow(/expired/i);

  // Revoked: an administrator revokes the profile; once the status list is re-signed, refused.
  const admin = await request.post('/api/admin/login', { data: { password: 'admin-dev-only' }, headers: { Origin: baseURL! } });
  expect(admin.ok()).toBe(true);
  const me = await (await page.request.get('/api/auth/status')).json();
  const revoked = await request.post(`/api/admin/users/${me.userId}/revoke`, {
    data: { motivo: 'Prueba de revocación de credencial' }, headers: { Origin: baseURL! },
  });
  expect(revoked.status()).toBe(200);
  await expect
    .poll(async () => vc.verify(credential).then(() => 'valid', (e: Error) => e.message), { timeout: 20_000 })
    .toMatch(/status/i);
  const again = await page.request.get(`/api/credentials/${id}`);
  expect((await again.json()).status).toBe('revoked');
});

test('a person shares only their name; the verifier checks it offline, then sees the revocation once the list refreshes', async ({ page, context, request, baseURL }) => {
  test.setTimeout(150_000);
  const p = newPerson('Iván Comparte Solís', 'share');
  await reachLevel3(page, p);

  // Mi Perfil: get the credential, keep only the name, generate the presentation.
  const card = page.getByTestId('credential-card');
  await card.getByRole('button', { name: 'Obtener mi credencial' }).click();
  await expect(card.getByRole('button', { name: 'Descargar credencial' })).toBeVisible({ timeout: 20_000 });
  await expect(card.getByLabel('Nombre', { exact: true })).toBeChecked(); // not "Nombre(s) según tu identificación" (issue 52)
  await card.getByRole('button', { name: 'Generar presentación' }).click();
  const presentation = card.getByTestId('credential-presentation');
  await expect(presentation.getByRole('img', { name: 'Código QR de la presentación' })).toBeVisible();
  const link = await presentation.getByLabel('Enlace para verificar').inputValue();
  expect(link).toContain(`${baseURL}/verify#vp=`);
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'screenshots/credential-share.png', fullPage: true });

  // Back later (the page reloaded, as after a new sign-in): the card shows the credential it
  // issued, from the server, instead of offering another (issue 38).
  await page.reload();
  await expect(card.getByRole('button', { name: 'Descargar credencial' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Obtener mi credencial' })).toHaveCount(0);

  // The verifier opens the link on another device (a fresh context, nobody signed in).
  const verifierContext = await context.browser()!.newContext({ baseURL });
  const verifier = await verifierContext.newPage();
  await verifier.goto(link);
  const verdict = verifier.getByTestId('credential-verdict');
  await expect(verdict).toContainText('Credencial válida', { timeout: 15_000 });
  await expect(verifier.getByTestId('claim-name')).toHaveText('Iván Comparte Solís');
  await expect(verifier.getByTestId('claim-origin')).toHaveCount(0);
  await expect(verifier.getByTestId('claim-validated_at')).toHaveCount(0);

  // Once the service worker controls the page and has kept the keys and the list, the network goes.
  await expect.poll(() => verifier.evaluate(() => Boolean(navigator.serviceWorker.controller)), { timeout: 20_000 }).toBe(true);
  await verifier.getByRole('button', { name: 'Verificar' }).click();
  await expect(verdict).toContainText('Credencial válida');
  await verifierContext.setOffline(true);
  await verifier.reload();
  await expect(verdict).toContainText('Credencial válida', { timeout: 15_000 });
  await expect(verifier.getByTestId('status-list-age')).toContainText('Sin conexión');
  await verifier.screenshot({ path: 'screenshots/credential-verified-offline.png', fullPage: true });

  // Back online, the profile is revoked; the next check gets the re-signed list.
  await verifierContext.setOffline(false);
  const admin = await request.post('/api/admin/login', { data: { password: 'admin-dev-only' }, headers: { Origin: baseURL! } });
  expect(admin.ok()).toBe(true);
  const me = await (await page.request.get('/api/auth/status')).json();
  expect((await request.post(`/api/admin/users/${me.userId}/revoke`, {
    data: { motivo: 'Credencial comprometida' }, headers: { Origin: baseURL! },
  })).status()).toBe(200);
  await expect(async () => {
    await verifier.getByRole('button', { name: 'Verificar' }).click();
    await expect(verdict).toContainText('Credencial revocada', { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await verifier.screenshot({ path: 'screenshots/credential-revoked.png', fullPage: true });
  await verifierContext.close();
});

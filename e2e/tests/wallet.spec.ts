import { execFileSync } from 'node:child_process';
import { createHash, createHmac, randomBytes, timingSafeEqual, X509Certificate } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext } from '@playwright/test';
import {
  clientAuthenticationAnonymous,
  type CallbackContext,
  type HashAlgorithm,
  type Jwk,
  type JwtSigner,
} from '@openid4vc/oauth2';
import { Openid4vciClient, Openid4vciRetrieveCredentialsError, setGlobalConfig } from '@openid4vc/openid4vci';
import { Openid4vpClient } from '@openid4vc/openid4vp';
import { ES256, digest } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import * as jose from 'jose';
import { newPerson, reachLevel3ByAPI } from './helpers';
import { useSecondServer } from '../second-server';

// Issue 28: a wallet made of implementations not written here — the OpenWallet Foundation's
// @openid4vc/openid4vci and @openid4vc/openid4vp (oid4vc-ts), @sd-jwt/sd-jwt-vc and jose — takes
// the credential from Mi Perfil's offer (OpenID4VCI, pre-authorized code with the tx_code from
// the development inbox, a key proof) and presents only the name to a partner's request
// (OpenID4VP, x509_san_dns, DCQL, direct_post.jwt); the partner's poll and webhook show exactly
// that. No browser: the person's steps are Mi Perfil's API calls.
//
// The server runs on http://localhost (a second server): x509_san_dns names a DNS host, and the
// suite's server is on 127.0.0.1. Payments are off there (no checkout step before the biometric
// check). The libraries refuse http:// URLs unless told otherwise.
setGlobalConfig({ allowInsecureUrls: true });

/** The libraries' hash callback (names as 'sha-256'). */
function hash(data: Uint8Array, alg: HashAlgorithm): Uint8Array {
  return createHash(alg.replace('-', '')).update(data).digest();
}

/** What the wallet's key signs with, as the libraries' signJwt callback wants it. */
function signerFor(privateKey: CryptoKey, publicJwk: Jwk): CallbackContext['signJwt'] {
  return async (signer: JwtSigner, { header, payload }) => {
    expect(signer.method).toBe('jwk');
    const jwt = await new jose.SignJWT(payload).setProtectedHeader({ ...header, alg: 'ES256' } as jose.JWTHeaderParameters).sign(privateKey);
    return { jwt, signerJwk: publicJwk };
  };
}

/** The request objects whose signatures the wallet checked against their x5c leaf. */
const checkedRequestObjects: string[] = [];

/** verifyJwt: a request object (JAR) is signed by the key of its x5c leaf certificate. */
const verifyJwt: CallbackContext['verifyJwt'] = async (signer, { compact }) => {
  if (signer.method !== 'x5c') return { verified: false };
  const leaf = new X509Certificate(Buffer.from(signer.x5c[0], 'base64'));
  const key = await jose.importX509(leaf.toString(), 'ES256');
  try {
    await jose.compactVerify(compact, key);
  } catch {
    return { verified: false };
  }
  checkedRequestObjects.push(compact);
  return { verified: true, signerJwk: (await jose.exportJWK(key)) as Jwk };
};

/** encryptJwe: the direct_post.jwt answer, ECDH-ES to the request's key, with jose's CompactEncrypt. */
const encryptJwe: CallbackContext['encryptJwe'] = async (encryptor, data) => {
  const key = await jose.importJWK(encryptor.publicJwk as jose.JWK, encryptor.alg);
  const jwe = await new jose.CompactEncrypt(new TextEncoder().encode(data))
    .setProtectedHeader({ alg: encryptor.alg, enc: encryptor.enc, kid: encryptor.publicJwk.kid })
    .setKeyManagementParameters({
      apu: encryptor.apu ? jose.base64url.decode(encryptor.apu) : undefined,
      apv: encryptor.apv ? jose.base64url.decode(encryptor.apv) : undefined,
    })
    .encrypt(key);
  return { jwe, encryptionJwk: encryptor.publicJwk };
};

/** The DNS names of an x5c certificate (base64 DER), for the x509_san_dns check. */
function x509Metadata(certificate: string) {
  const san = new X509Certificate(Buffer.from(certificate, 'base64')).subjectAltName ?? '';
  const names = san.split(', ');
  return {
    sanDnsNames: names.filter((n) => n.startsWith('DNS:')).map((n) => n.slice(4)),
    sanUriNames: names.filter((n) => n.startsWith('URI:')).map((n) => n.slice(4)),
  };
}

/** The wallet's callbacks for both libraries; signJwt signs with the holder key. */
function walletCallbacks(signJwt: CallbackContext['signJwt']): CallbackContext {
  return {
    fetch,
    hash,
    generateRandom: (n) => randomBytes(n),
    signJwt,
    verifyJwt,
    encryptJwe,
    decryptJwe: () => {
      throw new Error('the wallet decrypts nothing');
    },
    clientAuthentication: clientAuthenticationAnonymous(),
    getX509CertificateMetadata: x509Metadata,
  };
}

/** The codes the development inbox holds for `to`. */
async function inboxCodes(request: APIRequestContext, to: string): Promise<string[]> {
  const res = await request.get(`/dev/inbox.json?to=${encodeURIComponent(to)}`);
  const messages = ((await res.json()) as { text: string }[] | null) ?? [];
  return messages.map((m) => /(?<!\d)(\d{6})(?!\d)/.exec(m.text)?.[1]).filter((c): c is string => !!c);
}

/** A partner's webhook endpoint on this machine that keeps what it receives. */
async function startHook(): Promise<{ server: Server; url: string; received: { headers: Record<string, string>; body: string }[] }> {
  const received: { headers: Record<string, string>; body: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

/** The partner's check of X-PerfilSeguro-Signature (t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">). */
function signatureValid(header: string, body: string, secret: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.trim().split('=')));
  const expected = Buffer.from(createHmac('sha256', secret).update(`${parts.t}.${body}`).digest('hex'));
  const got = Buffer.from(String(parts.v1));
  return Math.abs(Date.now() / 1000 - Number(parts.t)) < 300 && expected.length === got.length && timingSafeEqual(expected, got);
}

test.describe('a standard wallet', () => {
  const server = useSecondServer({ offset: 3, suffix: 'billetera', host: 'localhost', env: { PAYMENTS: 'off' } });
  const partnerKey = 'pk_live_0000000000000000000e2eb1'; // its live publishable key (partner_keys holds its hash)
  const secretKey = 'sk_live_000000000000000000000000000000000000000000e2eb1a'; // its server's key: reads what was shared
  const webhookSecret = 'whsec_e2e_billetera';
  let hook: Awaited<ReturnType<typeof startHook>>;

  test.beforeAll(async () => {
    hook = await startHook();
    // A partner with a webhook, straight in the second server's database (as integration.spec.ts does).
    execFileSync('psql', [`postgres://postgres@127.0.0.1:5432/${server.database}?sslmode=disable`, '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c',
      `WITH p AS (INSERT INTO api_keys (key_id, partner_name, domain, webhook_url, webhook_secret)
         VALUES ('${partnerKey}', 'Socio Billetera', 'https://socio-billetera.example', '${hook.url}', '${webhookSecret}') RETURNING id)
       INSERT INTO partner_keys (partner_id, kind, livemode, token_hash, hint)
       SELECT id, 'publishable', true, encode(sha256(convert_to('${partnerKey}', 'UTF8')), 'hex'), '${partnerKey}' FROM p
       UNION ALL SELECT id, 'secret', true, encode(sha256(convert_to('${secretKey}', 'UTF8')), 'hex'), 'sk_live_…eb1a' FROM p`], { stdio: 'pipe' });
  });
  test.afterAll(async () => {
    await new Promise((resolve) => hook?.server.close(resolve));
  });

  test('takes the credential from an OpenID4VCI offer and presents only the name to a partner through OpenID4VP', async ({ request, playwright, baseURL }) => {
    test.setTimeout(120_000);
    expect(baseURL).toBe(server.baseURL);
    const p = newPerson('Lucía Billetera Ortega', 'wallet');
    const userId = await reachLevel3ByAPI(request, baseURL!, p);

    // The person asks Mi Perfil for an offer (the call behind "Agregar a una billetera digital").
    const codesBefore = await inboxCodes(request, p.e164);
    const offered = await request.post(`/api/users/${userId}/credential-offers`, { headers: { Origin: baseURL! } });
    expect(offered.status(), await offered.text()).toBe(201);
    const { offerUri: offerLink, qrUrl, expiresAt, channel } = await offered.json();
    expect(offerLink).toMatch(/^openid-credential-offer:\/\/\?credential_offer_uri=/);
    expect(qrUrl).toMatch(/^data:image\/png;base64,/);
    expect(channel).toBe('phone');
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000);

    // The wallet, with its own key.
    const holder = await jose.generateKeyPair('ES256', { extractable: true });
    const holderJwk = (await jose.exportJWK(holder.publicKey)) as Jwk;
    const callbacks = walletCallbacks(signerFor(holder.privateKey, holderJwk));
    const vci = new Openid4vciClient({ callbacks });

    const offer = await vci.resolveCredentialOffer(offerLink);
    expect(offer.credential_issuer).toBe(baseURL);
    const [configurationId] = offer.credential_configuration_ids;
    const issuerMetadata = await vci.resolveIssuerMetadata(offer.credential_issuer);
    const configuration = issuerMetadata.credentialIssuer.credential_configurations_supported[configurationId] as Record<string, unknown>;
    expect(configuration.format).toBe('dc+sd-jwt');
    expect(configuration.vct).toBe(`${baseURL}/credentials/identidad-validada`);
    expect(issuerMetadata.credentialIssuer.display?.[0]).toMatchObject({ name: 'Perfil Seguro', locale: 'es-MX' });
    expect(issuerMetadata.authorizationServers[0]).toMatchObject({
      issuer: baseURL,
      'pre-authorized_grant_anonymous_access_supported': true,
    });

    // The tx_code the wallet asks the person for: the newest code in the development inbox.
    let txCode: string | undefined;
    await expect
      .poll(async () => (txCode = (await inboxCodes(request, p.e164)).find((c) => !codesBefore.includes(c))), { timeout: 15_000 })
      .toBeDefined();
    const wrong = txCode === '000000' ? '111111' : '000000';
    await expect(vci.retrievePreAuthorizedCodeAccessTokenFromOffer({ credentialOffer: offer, issuerMetadata, txCode: wrong }))
      .rejects.toThrow(/invalid_grant/);
    const { accessTokenResponse } = await vci.retrievePreAuthorizedCodeAccessTokenFromOffer({ credentialOffer: offer, issuerMetadata, txCode });
    expect(accessTokenResponse.token_type).toBe('Bearer');

    // Possession of the wallet's key: a proof JWT over a fresh c_nonce.
    const { c_nonce } = await vci.requestNonce({ issuerMetadata });
    const { jwt: proofJwt } = await vci.createCredentialRequestJwtProof({
      issuerMetadata,
      credentialConfigurationId: configurationId,
      signer: { method: 'jwk', alg: 'ES256', publicJwk: holderJwk },
      nonce: c_nonce,
    });
    const issued = await vci
      .retrieveCredentials({
        issuerMetadata,
        accessToken: accessTokenResponse.access_token,
        credentialConfigurationId: configurationId,
        proofs: { jwt: [proofJwt] },
      })
      .catch((e: unknown) => {
        if (e instanceof Openid4vciRetrieveCredentialsError) throw new Error(`${e.message}: ${JSON.stringify(e.response.credentialErrorResponseResult?.data)}`);
        throw e;
      });
    let response = issued.credentialResponse;
    // Signing took longer than the endpoint waits: the deferred endpoint hands it over.
    for (let i = 0; !response.credentials && response.transaction_id && i < 20; i++) {
      await new Promise((r) => setTimeout(r, (response.interval ?? 1) * 1000));
      response = (await vci.retrieveDeferredCredentials({
        issuerMetadata,
        accessToken: accessTokenResponse.access_token,
        transactionId: response.transaction_id,
      })).deferredCredentialResponse as typeof response;
    }
    const credential = (response.credentials?.[0] as { credential: string }).credential;
    expect(credential).toContain('~');

    // The credential, checked with @sd-jwt/sd-jwt-vc against the issuer's published keys.
    const keys: ({ kid: string } & Record<string, unknown>)[] = (await (await request.get('/.well-known/jwt-vc-issuer')).json()).jwks.keys;
    const issuerSignature = async (data: string, signature: string) => {
      const { kid } = JSON.parse(Buffer.from(data.split('.')[0], 'base64url').toString());
      const jwk = keys.find((k) => k.kid === kid);
      return !!jwk && (await ES256.getVerifier(jwk))(data, signature);
    };
        const sdjwt = new SDJwtVcInstance({
      hasher: digest,
      verifier: issuerSignature,
      statusVerifier: issuerSignature,
      statusListFetcher: async (uri: string) => (await request.get(uri)).text(),
      kbSignAlg: 'ES256',
      kbSigner: await ES256.getSigner(await jose.exportJWK(holder.privateKey)),
      kbVerifier: async (data: string, signature: string) => (await ES256.getVerifier(holderJwk as JsonWebKey))(data, signature),
    });
    const verified = await sdjwt.verify(credential);
    expect(verified.payload.iss).toBe(baseURL);
    expect(verified.payload.name).toBe('Lucía Billetera Ortega');
    expect(verified.payload.verification_level).toBe(3);
    expect((verified.payload.cnf as { jwk: Jwk }).jwk).toMatchObject({ kty: 'EC', crv: 'P-256', x: holderJwk.x, y: holderJwk.y });

    // A partner asks for the name (server to server, with its secret key; none of the person's cookies).
    const partner = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Bearer ${secretKey}` } });
    const asked = await partner.post('/api/widget/presentations', { data: { claims: ['name'] } });
    expect(asked.status()).toBe(201);
    const presentationRequest: { id: string; requestUri: string; qrUrl: string } = await asked.json();
    expect(presentationRequest.qrUrl).toMatch(/^data:image\/png;base64,/);

    // The wallet reads the openid4vp:// link: request object by reference, signature checked
    // against its x5c leaf, whose DNS name is the client_id's and the response URI's host.
    const vp = new Openid4vpClient({ callbacks });
    const parsed = vp.parseOpenid4vpAuthorizationRequest({ authorizationRequest: presentationRequest.requestUri });
    const resolved = await vp.resolveOpenId4vpAuthorizationRequest({ authorizationRequestPayload: parsed.params });
    expect(checkedRequestObjects).toHaveLength(1);
    expect(resolved.client.prefix).toBe('x509_san_dns');
    expect(resolved.client.identifier).toBe('localhost');
    const authorizationRequest = resolved.authorizationRequestPayload as Record<string, unknown> & {
      client_id: string;
      nonce: string;
      response_uri: string;
    };
    expect(new URL(authorizationRequest.response_uri).hostname).toBe('localhost');
    expect(authorizationRequest.response_mode).toBe('direct_post.jwt');
    const query = resolved.dcql?.query as { credentials: { id: string; claims: { path: string[] }[] }[] };
    expect(query.credentials[0].claims.map((c) => c.path)).toEqual([['name']]);

    // The answer: the name disclosed, bound to the request by a key binding JWT, encrypted.
    const presentation = await sdjwt.present(credential, { name: true }, {
      kb: { payload: { aud: authorizationRequest.client_id, nonce: authorizationRequest.nonce, iat: Math.floor(Date.now() / 1000) } },
    });
    const shown = await sdjwt.verify(presentation, { keyBindingNonce: authorizationRequest.nonce, requireKeyBindings: true });
    expect(shown.payload.name).toBe('Lucía Billetera Ortega');
    expect(shown.payload).not.toHaveProperty('validated_at');
    const answer = await vp.createOpenid4vpAuthorizationResponse({
      authorizationRequestPayload: resolved.authorizationRequestPayload,
      authorizationResponsePayload: { vp_token: { [query.credentials[0].id]: [presentation] } },
      jarm: {
        encryption: { nonce: randomBytes(16).toString('base64url') },
        serverMetadata: {
          authorization_signing_alg_values_supported: ['ES256'],
          authorization_encryption_alg_values_supported: ['ECDH-ES'],
          authorization_encryption_enc_values_supported: ['A128GCM', 'A256GCM'],
        },
      },
    });
    expect(answer.jarm?.responseJwt.split('.')).toHaveLength(5); // a compact JWE
    const submitted = await vp.submitOpenid4vpAuthorizationResponse({
      authorizationRequestPayload: { response_uri: authorizationRequest.response_uri },
      authorizationResponsePayload: answer.authorizationResponsePayload,
      jarm: answer.jarm,
    });
    expect(submitted.response.status, await submitted.response.clone().text()).toBe(200);

    // The same answer again is a replay: refused, and it changes nothing.
    const replay = await vp.submitOpenid4vpAuthorizationResponse({
      authorizationRequestPayload: { response_uri: authorizationRequest.response_uri },
      authorizationResponsePayload: answer.authorizationResponsePayload,
      jarm: answer.jarm,
    });
    expect(replay.response.status).toBe(400);

    // The partner's poll and webhook: exactly the name, nothing else about the person.
    const polled = await partner.get(`/api/widget/presentations/${presentationRequest.id}`);
    expect(polled.status()).toBe(200);
    const state = await polled.json();
    expect(state.status).toBe('completed');
    expect(state.claims).toEqual({ name: 'Lucía Billetera Ortega' });
    // Its publishable key (a browser's) learns that it completed, never what was shared.
    const page = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { 'X-Partner-Key': partnerKey } });
    const browserView = await (await page.get(`/api/widget/presentations/${presentationRequest.id}`)).json();
    expect(browserView.status).toBe('completed');
    expect(browserView).not.toHaveProperty('claims');
    await page.dispose();
    await expect.poll(() => hook.received.length, { timeout: 20_000 }).toBeGreaterThan(0);
    const [delivery] = hook.received;
    expect(delivery.headers['x-perfilseguro-event']).toBe('presentation.completed');
    expect(signatureValid(delivery.headers['x-perfilseguro-signature'], delivery.body, webhookSecret)).toBe(true);
    const event = JSON.parse(delivery.body);
    expect(event).toMatchObject({ event: 'presentation.completed', id: presentationRequest.id });
    expect(event.claims).toEqual({ name: 'Lucía Billetera Ortega' });
    expect(Object.keys(event).sort()).toEqual(['claims', 'completedAt', 'event', 'id']);
    await partner.dispose();
  });
});

import { execFileSync } from 'node:child_process';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

/** Options for readLatestCode. */
export interface ReadCodeOptions {
  /** How long to keep reloading the inbox until a code arrives (ms). */
  timeout?: number;
  /** Codes already used; wait for a newer one (e.g. after "resend"). */
  exclude?: string[];
}

interface InboxMessage {
  to: string;
  text: string;
  sentAt: number | null;
  index: number;
}

// Six digits standing alone: not part of a longer number, a date or a token.
const CODE = /(?<![\w/-])(\d{6})(?![\w/-])/;

/** normalize makes phone numbers comparable by digits and e-mails case-insensitively. */
function normalize(address: string): string {
  const trimmed = address.trim().toLowerCase();
  return trimmed.includes('@') ? trimmed : trimmed.replace(/\D/g, '');
}

/** sameRecipient accepts +52 5512345678 for 5512345678 and the other way round. */
function sameRecipient(a: string, b: string): boolean {
  const x = normalize(a);
  const y = normalize(b);
  if (!x || !y) return false;
  if (x.includes('@') || y.includes('@')) return x === y;
  return x === y || (Math.min(x.length, y.length) >= 10 && (x.endsWith(y) || y.endsWith(x)));
}

/** readMessages lists the inbox messages shown on the current page. */
async function readMessages(page: Page): Promise<InboxMessage[]> {
  return page.locator('[data-testid="inbox-message"]').evaluateAll((nodes) =>
    nodes.map((node, index) => {
      const el = node as HTMLElement;
      const stamp =
        el.getAttribute('data-sent-at') ??
        el.getAttribute('data-created-at') ??
        el.querySelector('time[datetime]')?.getAttribute('datetime') ??
        null;
      let sentAt: number | null = null;
      if (stamp) {
        sentAt = /^\d+$/.test(stamp) ? Number(stamp) : Date.parse(stamp);
        if (Number.isNaN(sentAt)) sentAt = null;
      }
      // Prefer the message body over the whole card (recipient, date, channel).
      const body = el.querySelector<HTMLElement>('[data-testid="inbox-text"]') ?? el;
      return { to: el.getAttribute('data-to') ?? '', text: body.innerText ?? '', sentAt, index };
    }),
  );
}

/**
 * newestCode picks the recipient's newest message that carries a 6-digit code.
 * Messages with a timestamp (data-sent-at, data-created-at or <time datetime>)
 * are ordered by it; otherwise the inbox is read as newest first.
 */
function newestCode(messages: InboxMessage[], to: string, exclude: string[]): string | null {
  const mine = messages
    .filter((m) => sameRecipient(m.to, to))
    .map((m) => ({ ...m, code: CODE.exec(m.text)?.[1] ?? null }))
    .filter((m): m is typeof m & { code: string } => m.code !== null && !exclude.includes(m.code));
  if (mine.length === 0) return null;
  const timed = mine.every((m) => m.sentAt !== null);
  mine.sort((a, b) => (timed ? b.sentAt! - a.sentAt! || a.index - b.index : a.index - b.index));
  return mine[0].code;
}

/**
 * readLatestCode opens the development inbox (/dev/inbox) in a new tab of the
 * same browser context, waits until a 6-digit code sent to `to` (phone or
 * e-mail) shows up, and returns the newest one. The caller's page is left as is.
 */
export async function readLatestCode(page: Page, to: string, options: ReadCodeOptions = {}): Promise<string> {
  const { timeout = 15_000, exclude = [] } = options;
  const inbox = await page.context().newPage();
  try {
    let code: string | null = null;
    await expect
      .poll(
        async () => {
          await inbox.goto('/dev/inbox');
          // The list may render after a fetch; an empty inbox simply shows none.
          await inbox
            .locator('[data-testid="inbox-message"]')
            .first()
            .waitFor({ timeout: 2_000 })
            .catch(() => undefined);
          code = newestCode(await readMessages(inbox), to, exclude);
          return code;
        },
        { message: `a 6-digit code sent to ${to} in /dev/inbox`, timeout, intervals: [250, 500, 1000] },
      )
      .not.toBeNull();
    return code!;
  } finally {
    await inbox.close();
  }
}

/** waitForMessage polls the development inbox until a message to `to` matches `pattern`. */
export async function waitForMessage(request: APIRequestContext, to: string, pattern: RegExp): Promise<RegExpExecArray> {
  let match: RegExpExecArray | null = null;
  await expect
    .poll(
      async () => {
        const res = await request.get(`/dev/inbox.json?to=${encodeURIComponent(to)}`);
        for (const m of ((await res.json()) as { text: string }[] | null) ?? []) {
          match = pattern.exec(m.text);
          if (match) return true;
        }
        return false;
      },
      { message: `a message to ${to} matching ${pattern}`, timeout: 15_000, intervals: [200, 400, 800] },
    )
    .toBe(true);
  return match!;
}

/** A person with contact data no other test uses. */
export interface Person {
  name: string;
  email: string;
  /** 10 national digits, as typed in the forms. */
  phone: string;
  /** The stored E.164 form (+52 and 10 digits), the inbox recipient of WhatsApp messages. */
  e164: string;
}

/** newPerson is `name` with a fresh e-mail (`prefix.<tag>@example.com`) and a fresh Mexican mobile. */
export function newPerson(name: string, prefix: string): Person {
  const digits = String(Math.floor(Math.random() * 90_000_000) + 10_000_000);
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
  return { name, email: `${prefix}.${tag}@example.com`, phone: `55${digits}`, e164: `+5255${digits}` };
}

/**
 * registerInUI signs p up on /register with the code the worker delivered to the development
 * inbox, and lands on /profile at level 1 ('Verificación en proceso').
 */
export async function registerInUI(page: Page, p: Person): Promise<void> {
  await page.goto('/register');
  await completeRegistration(page, p);
  await expect(page.getByTestId('verification-badge')).toHaveText('Verificación en proceso');
}

/**
 * completeRegistration fills the registration form already open on page (/register, with or
 * without a plan), enters the code the worker delivered, and lands on /profile.
 */
export async function completeRegistration(page: Page, p: Person): Promise<void> {
  await submitRegistration(page, p);
  await expect(page).toHaveURL(/\/profile$/, { timeout: 10_000 });
}

/**
 * submitRegistration fills the registration form already open on page and enters the code the
 * worker delivered; where the page goes next is the caller's to check (/profile, or back to a flow).
 */
export async function submitRegistration(page: Page, p: Person): Promise<void> {
  await page.getByLabel('Nombre completo').fill(p.name);
  await page.getByLabel('Correo electrónico').fill(p.email);
  await page.getByLabel('Número de WhatsApp').fill(p.phone);
  await page.getByRole('button', { name: 'Continuar' }).click();
  const [, code] = await waitForMessage(page.request, p.e164, /(?<!\d)(\d{6})(?!\d)/);
  await page.getByLabel('Código de verificación').fill(code);
  await page.getByRole('button', { name: 'Verificar código' }).click();
}

/** The paid plans as Mi Perfil's plan card names them. */
export type PaidPlan = { name: 'Validación 1 año'; price: '$299' } | { name: 'Validación 5 años'; price: '$399' };
export const ONE_YEAR: PaidPlan = { name: 'Validación 1 año', price: '$299' };
export const FIVE_YEARS: PaidPlan = { name: 'Validación 5 años', price: '$399' };

/**
 * startCheckout chooses plan on Mi Perfil's plan card and follows the redirect to the checkout
 * page (the local stand-in playing Stripe Checkout).
 */
export async function startCheckout(page: Page, plan: PaidPlan = ONE_YEAR): Promise<void> {
  const card = page.getByTestId('plan-card');
  await card.getByRole('radio', { name: plan.name }).check();
  await card.getByRole('button', { name: `Pagar ${plan.price} MXN` }).click();
  await page.waitForURL(/\/dev\/checkout\/cs_test_\w+$/);
}

/** payByCard pays plan by card through the checkout stand-in and waits for Mi Perfil to say so. */
export async function payByCard(page: Page, plan: PaidPlan = ONE_YEAR): Promise<void> {
  await startCheckout(page, plan);
  await page.getByRole('button', { name: 'Pagar con tarjeta' }).click();
  await page.waitForURL(/\/profile\?pago=exito/);
  await expect(page.getByTestId('plan-card').getByText('Pagado', { exact: true })).toBeVisible({ timeout: 15_000 });
}

/** reachLevel3 registers, follows the e-mail link, pays the 1-year plan and approves in the development biometric provider. */
export async function reachLevel3(page: Page, p: Person): Promise<void> {
  await registerInUI(page, p);
  await completeLevels2And3(page, p);
}

/**
 * completeLevels2And3 takes a level-1 person on Mi Perfil through the rest: follows the e-mail
 * link, pays the 1-year plan and approves in the development biometric provider.
 */
export async function completeLevels2And3(page: Page, p: Person): Promise<void> {
  await page.getByTestId('email-verification-card').getByRole('button', { name: 'Enviar enlace de verificación' }).click();
  const [link] = await waitForMessage(page.request, p.email, /https?:\/\/\S+\/api\/verify-email\?token=[0-9a-f]{64}/);
  await page.goto(link);
  await expect(page.getByText('Nivel 2 Completado')).toBeVisible();

  await payByCard(page);
  await approveOnSimulator(page);
  await expect(page.getByTestId('verification-badge')).toHaveText('Verificación completa', { timeout: 20_000 });
}

/**
 * giveBiometricConsent ticks the express consent for biometric data on Mi Perfil and records it:
 * until then the buttons that start the check stay disabled.
 */
export async function giveBiometricConsent(page: Page): Promise<void> {
  const card = page.getByTestId('biometric-consent').first();
  await card.getByRole('checkbox').check();
  await card.getByRole('button', { name: 'Otorgar consentimiento' }).click();
  await expect(page.getByTestId('biometric-consent')).toHaveCount(0);
}

/**
 * approveOnSimulator presses button on Mi Perfil (giving the biometric consent first when it is
 * still asked for) and approves the check in the biometric simulator's popup.
 */
export async function approveOnSimulator(page: Page, button = 'Completar Verificación'): Promise<void> {
  const start = page.getByRole('button', { name: button });
  await expect(start).toBeVisible({ timeout: 15_000 });
  if ((await page.getByTestId('biometric-consent').count()) > 0) await giveBiometricConsent(page);
  const popupOpened = page.waitForEvent('popup');
  await start.click();
  const popup = await popupOpened;
  await popup.waitForURL(/\/dev\/biometric\//);
  await popup.getByRole('button', { name: 'Aprobar' }).click();
  await popup.waitForURL(/\/return\?.*status=Approved/);
  await popup.close();
}

/**
 * reachLevel3ByAPI takes p to level 3 with HTTP calls only, as Mi Perfil makes them (no browser):
 * registration and its code, the e-mail link from the development inbox, the express biometric
 * consent, and an approval in the development biometric provider. The server must run with
 * PAYMENTS=off (no checkout step). request keeps the session cookie; returns the user id.
 */
export async function reachLevel3ByAPI(request: APIRequestContext, baseURL: string, p: Person): Promise<number> {
  const headers = { Origin: baseURL };
  const registered = await request.post('/api/register', { data: { fullName: p.name, email: p.email, phoneNumber: p.phone }, headers });
  expect(registered.ok(), await registered.text()).toBe(true);
  const { sessionToken } = await registered.json();
  const [, code] = await waitForMessage(request, p.e164, /(?<!\d)(\d{6})(?!\d)/);
  const verified = await request.post('/api/verify-code', { data: { sessionToken, code }, headers });
  expect(verified.ok(), await verified.text()).toBe(true);
  const { userId } = (await verified.json()) as { userId: number };

  const sent = await request.post('/api/send-email-verification-link', { data: { userId }, headers });
  expect(sent.ok(), await sent.text()).toBe(true);
  const [link] = await waitForMessage(request, p.email, /https?:\/\/\S+\/api\/verify-email\?token=[0-9a-f]{64}/);
  expect((await request.get(new URL(link).pathname + new URL(link).search)).ok()).toBe(true);

  const consent = await request.post(`/api/users/${userId}/consents`, { data: { purpose: 'biometric', granted: true }, headers });
  expect(consent.ok(), await consent.text()).toBe(true);
  const started = await request.post('/api/start-verification', { data: { userId }, headers });
  expect(started.ok(), await started.text()).toBe(true);
  let { verificationUrl, sessionId } = (await started.json()) as { verificationUrl?: string; sessionId: number };
  await expect
    .poll(async () => {
      if (!verificationUrl) verificationUrl = (await (await request.get(`/api/start-verification/${sessionId}`)).json()).verificationUrl;
      return verificationUrl;
    }, { timeout: 15_000 })
    .toBeTruthy();
  const approved = await request.post(new URL(verificationUrl!).pathname, { form: { decision: 'approve' }, headers, maxRedirects: 0 });
  expect(approved.status(), await approved.text()).toBe(303);
  await expect
    .poll(async () => (await (await request.get(`/api/users/${userId}/verification-status`)).json()).verificationLevel, { timeout: 20_000 })
    .toBe(3);
  return userId;
}

// The server's database (playwright.config.ts: E2E_DATABASE overrides the name).
const e2eDatabaseURL = `postgres://postgres@127.0.0.1:5432/${process.env.E2E_DATABASE ?? 'perfilseguro_e2e'}?sslmode=disable`;

/**
 * sql runs a statement on the e2e database and returns its unaligned output. :'p1', :'p2'… are the
 * params: psql interpolates them only in statements it reads, hence stdin rather than -c.
 */
export function sql(statement: string, ...params: string[]): string {
  const vars = params.flatMap((p, i) => ['-v', `p${i + 1}=${p}`]);
  return execFileSync('psql', [e2eDatabaseURL, '-X', '-q', '-tA', '-v', 'ON_ERROR_STOP=1', ...vars], {
    input: statement,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
    .toString()
    .trim();
}

/**
 * codeFor waits for the newest 6-digit code the worker delivered to `to` (phone or e-mail) that is
 * not in `exclude`, read from the development inbox's JSON (newest first).
 */
export async function codeFor(request: APIRequestContext, to: string, exclude: string[] = []): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get(`/dev/inbox.json?to=${encodeURIComponent(to)}`);
        const messages = ((await res.json()) as { text: string }[] | null) ?? [];
        code = messages.map((m) => /(?<!\d)(\d{6})(?!\d)/.exec(m.text)?.[1]).find((c) => c && !exclude.includes(c));
        return code;
      },
      { message: `a code sent to ${to}`, timeout: 15_000, intervals: [200, 400, 800] },
    )
    .toBeDefined();
  return code!;
}

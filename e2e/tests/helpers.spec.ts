import { expect, test, type Page } from '@playwright/test';
import { readLatestCode } from './helpers';

// readLatestCode against fixed inbox pages (same markup as api/devinbox.go:
// newest first, data-testid="inbox-message", data-to, body in inbox-text), so
// the flows that rely on it fail for their own reasons, not the helper's.

interface Message {
  to: string;
  text: string;
}

function inboxHTML(messages: Message[]): string {
  const items = messages
    .map(
      (m) => `<article data-testid="inbox-message" data-to="${m.to}" data-channel="whatsapp">
<div class="meta">Para: <strong>${m.to}</strong> · 21/11/2026 23:42:05</div>
<pre data-testid="inbox-text">${m.text}</pre></article>`,
    )
    .join('\n');
  return `<!doctype html><html><body><main>${items || '<p>Aún no hay mensajes.</p>'}</main></body></html>`;
}

/** serveInbox answers /dev/inbox with the pages given, one per request, repeating the last. */
async function serveInbox(page: Page, ...pages: Message[][]) {
  let served = 0;
  await page.context().route('**/dev/inbox', (route) => {
    const messages = pages[Math.min(served++, pages.length - 1)];
    return route.fulfill({ contentType: 'text/html; charset=utf-8', body: inboxHTML(messages) });
  });
  return () => served;
}

test('readLatestCode returns the newest code for the recipient, matching +52 numbers by digits', async ({ page }) => {
  await serveInbox(page, [
    { to: 'otra@example.com', text: 'Tu código de verificación es 999999.' },
    { to: '+525512345678', text: 'Tu código de Perfil Seguro es 654321. Expira en 10 minutos.' },
    { to: '+525512345678', text: 'Tu código de Perfil Seguro es 123456. Expira en 10 minutos.' },
  ]);
  expect(await readLatestCode(page, '5512345678')).toBe('654321');
  expect(await readLatestCode(page, '+52 55 1234 5678', { exclude: ['654321'] })).toBe('123456');
  expect(await readLatestCode(page, 'OTRA@example.com')).toBe('999999');
});

test('readLatestCode ignores digits that are not a code and waits for the message to arrive', async ({ page }) => {
  const served = await serveInbox(
    page,
    [],
    [{ to: 'ana@example.com', text: 'Enlace: https://x.test/v?t=ab1234567 sin código' }],
    [{ to: 'ana@example.com', text: 'Tu código es 246810' }],
  );
  expect(await readLatestCode(page, 'ana@example.com')).toBe('246810');
  expect(served()).toBeGreaterThanOrEqual(3);
});

test('readLatestCode fails with a clear message when no code arrives', async ({ page }) => {
  await serveInbox(page, [{ to: '+525500000000', text: 'Tu código es 111111' }]);
  await expect(readLatestCode(page, '+525511111111', { timeout: 1_500 })).rejects.toThrow(
    /a 6-digit code sent to \+525511111111/,
  );
});

import { expect, test } from '@playwright/test';

// Issue 20: the partners' API reference renders from our own origin, under the usual Content
// Security Policy, and is linked from the integration page.
test('the API reference renders at /api/docs with the CSP intact, linked from /integration', async ({ page }) => {
  // Redoc lays out the whole OpenAPI document in the browser: on a slow two-core machine it showed
  // "Loading ..." for more than 20 s, then rendered.
  test.setTimeout(120_000);
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  const foreign: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (!['127.0.0.1', 'localhost'].includes(url.hostname) && !url.protocol.startsWith('data') && !url.protocol.startsWith('blob')) foreign.push(r.url());
  });

  await page.goto('/integration');
  await page.getByRole('link', { name: 'Referencia completa de la API' }).click();
  await expect(page).toHaveURL(/\/api\/docs$/);
  const res = await page.request.get('/api/docs');
  expect(res.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.getByRole('heading', { name: /Perfil Seguro API/ }).first()).toBeVisible({ timeout: 90_000 });
  await expect(page.getByText('/api/verify/{profileId}').first()).toBeAttached();
  await expect(page.getByText('user.verification_level_changed').first()).toBeAttached();
  await page.screenshot({ path: 'screenshots/api-docs.png' });
  expect(violations).toEqual([]);
  expect(foreign).toEqual([]);
});

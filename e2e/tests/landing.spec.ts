import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';

// Foundation issue: landing (SPEC §2 Landing), not-found screen, header theme toggle.

const screenshotDir = path.resolve(__dirname, '..', 'screenshots');

/** themeToggle is the header button that switches light/dark (its label names the target theme). */
function themeToggle(page: Page) {
  return page.getByRole('banner').getByRole('button', { name: /^Cambiar a tema (claro|oscuro)$/ });
}

function htmlTheme(page: Page) {
  return page.locator('html').getAttribute('data-theme');
}

test('landing shows every anchored section in order and the four statistics', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle(/Identidad validada, confianza garantizada/);

  // querySelectorAll returns document order, so this checks presence, uniqueness and order at once.
  await expect(page.locator('#que-es, #beneficios, #precios, #ventajas')).toHaveCount(4);
  const ids = await page.locator('#que-es, #beneficios, #precios, #ventajas').evaluateAll((els) => els.map((el) => el.id));
  expect(ids).toEqual(['que-es', 'beneficios', 'precios', 'ventajas']);

  const main = page.getByRole('main');
  for (const stat of ['99.8%', '100+', 'Menos de 3s', '24/7']) {
    await expect(main.getByText(stat, { exact: true }).first()).toBeVisible();
  }
});

test("'Saber más' scrolls to #que-es", async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('#que-es')).not.toBeInViewport();
  await page.getByRole('link', { name: 'Saber más', exact: true }).click();
  await expect(page).toHaveURL(/\/#que-es$/);
  await expect(page.locator('#que-es')).toBeInViewport();
});

test("the first 'Validar mi identidad ahora' opens /register", async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Validar mi identidad ahora' }).first().click();
  await expect(page).toHaveURL(/\/register$/);
});

test('an unknown path shows the not-found screen', async ({ page }) => {
  await page.goto('/esta-ruta-no-existe');
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
});

test('the theme chosen with the header toggle survives a reload', async ({ page }) => {
  await page.goto('/');
  const before = await htmlTheme(page);
  expect(before === 'light' || before === 'dark').toBe(true);
  const after = before === 'light' ? 'dark' : 'light';

  await themeToggle(page).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', after);

  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', after);
  // The button now offers the way back.
  await expect(themeToggle(page)).toHaveAccessibleName(after === 'dark' ? 'Cambiar a tema claro' : 'Cambiar a tema oscuro');
});

for (const scheme of ['light', 'dark'] as const) {
  test(`full-page screenshot of the landing in ${scheme}`, async ({ page }) => {
    // A fresh context has no saved theme, so the page follows the system preference.
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    await expect(page.locator('#ventajas')).toBeAttached();
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({
      path: path.join(screenshotDir, `landing-${scheme}.png`),
      fullPage: true,
      animations: 'disabled',
    });
  });
}

import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { useSecondServer } from '../second-server';

// Issue 53 item 3 (the review): the business's compliance officer uploads a list in the console
// ("Listas"), records an operation whose first person is on it and whose second person is on the
// fixture UN list; the worker screens them (aml:screen_operation); the officer discards the
// first possible hit with a reason and confirms the second, and the operation shows "Operación
// detenida". Passkeys need a host name: a second server on localhost, as partner-console.spec.ts.

const screenshotDir = path.resolve(__dirname, '..', 'screenshots');

async function shoot(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: path.join(screenshotDir, `${name}-1280.png`), fullPage: true });
  await page.setViewportSize({ width: 375, height: 812 });
  await page.screenshot({ path: path.join(screenshotDir, `${name}-375.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.describe('AML hits', () => {
  const server = useSecondServer({ offset: 3, suffix: 'amlhits', host: 'localhost' });
  const sql = (statement: string) =>
    execFileSync('psql', [`postgres://postgres@127.0.0.1:5432/${server.database}?sslmode=disable`, '-X', '-q', '-tA', '-v', 'ON_ERROR_STOP=1'],
      { input: statement, stdio: ['pipe', 'pipe', 'pipe'] }).toString().trim();

  /** A person with an account who completed a test-mode session with the partner, sharing their name. */
  const completedPerson = (partnerID: number, name: string, n: number): string => {
    const uid = sql(`INSERT INTO users (nombre, email, phone_number, origen, id_validado)
      VALUES ('${name}', 'aml${n}-${Date.now()}@example.com', '+52559${String(Date.now()).slice(-6)}${n}', 'Otro',
        'PS-' || lpad((random() * 9999)::int::text, 4, '0') || '-' || lpad((random() * 9999)::int::text, 4, '0') || '-0${n}') RETURNING id`);
    const id = `vs_${Date.now().toString(16).padStart(12, '0')}${String(n).padStart(12, '0')}`;
    sql(`INSERT INTO partner_sessions (id, partner_id, livemode, reference, required_level, claims, secret_hash, status, user_id, shared,
        expires_at, ended_at)
      VALUES ('${id}', ${partnerID}, false, 'cliente-${n}', 2, '{name}', md5(random()::text), 'completed', ${uid},
        jsonb_build_object('name', '${name}'), now() + interval '1 day', now())`);
    return id;
  };

  test('the compliance officer uploads a list, discards one possible hit with a reason and confirms a UN one, which stops the operation', async ({ page, playwright }) => {
    test.setTimeout(180_000);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });

    // The administrator makes the business and invites its compliance officer.
    const admin = await playwright.request.newContext({ baseURL: server.baseURL, extraHTTPHeaders: { Origin: server.baseURL } });
    expect((await admin.post('/api/admin/login', { data: { password: 'admin-dev-only' } })).status()).toBe(200);
    const created = await admin.post('/api/admin/partners', { data: { partnerName: 'Inmobiliaria Cumple', domain: 'https://cumple.example' } });
    expect(created.status(), await created.text()).toBe(201);
    const partner = (await created.json()) as { id: number };
    const invited = await admin.post(`/api/admin/partners/${partner.id}/users`,
      { data: { email: 'olga@cumple.example', name: 'Olga Cumplido', role: 'cumplimiento' } });
    expect(invited.status(), await invited.text()).toBe(201);
    const { enrolmentUrl } = (await invited.json()) as { enrolmentUrl: string };
    await admin.dispose();
    await page.goto(enrolmentUrl);
    await page.getByRole('button', { name: 'Crear llave de acceso' }).click();
    await expect(page.getByRole('heading', { name: 'Inmobiliaria Cumple' })).toBeVisible({ timeout: 15_000 });

    // Listas (test mode, the console's default): the business's own list, its columns mapped.
    await page.getByRole('tab', { name: 'Listas' }).click();
    const csv = 'Folio;Apellidos;Nombre(s);F. Nac.\r\nUIF-001;Ruiz Soto;Ana María;\r\nUIF-002;Luna Vega;Marta;1980\r\n';
    await page.getByLabel(/Archivo \(CSV o XLSX/).setInputFiles({ name: 'uif-bloqueadas.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(page.getByLabel('Apellidos (si van aparte)')).toHaveValue('Apellidos');
    await page.getByLabel('Nombres (si van aparte)').selectOption('Nombre(s)');
    await page.getByLabel(/Nombre de la lista/).fill('UIF personas bloqueadas');
    await shoot(page, 'aml-lists-mapping');
    await page.getByRole('button', { name: 'Importar lista' }).click();
    await expect(page.getByText('Lista importada: versión 1')).toBeVisible();
    await expect(page.getByTestId('list-version-row').filter({ hasText: 'uif-bloqueadas.csv' })).toContainText('2');
    await shoot(page, 'aml-lists');

    // An operation with a person on the uploaded list and one on the fixture UN list.
    const ana = completedPerson(partner.id, 'Ana María Ruiz Soto', 1);
    const viktor = completedPerson(partner.id, 'Viktor Petrovich', 2);
    const op = await page.request.post('/api/socios/operations?mode=test', {
      headers: { Origin: server.baseURL },
      data: { kind: 'compraventa', amount: '3500000.00', date: '2026-03-10', propertyReference: 'Casa en Coyoacán, lote 12',
        businessRole: 'intermediario', people: [{ role: 'comprador', sessionId: ana }, { role: 'vendedor', sessionId: viktor }] },
    });
    expect(op.status(), await op.text()).toBe(201);

    // The worker screens them: the uploaded list's possible hit appears.
    await page.getByRole('tab', { name: /Operaciones/ }).click();
    await expect
      .poll(async () => {
        await page.reload();
        await page.getByRole('tab', { name: /Operaciones/ }).click();
        return page.getByTestId('pending-hits-badge').textContent({ timeout: 2_000 }).catch(() => '');
      }, { message: 'the worker screened the operation', timeout: 60_000, intervals: [2_000] })
      .toMatch(/^[12]$/);
    // A $3,500,000 sale: identification is always required, and it reaches the aviso threshold.
    await expect(page.getByText('Identificación requerida').first()).toBeVisible();
    await page.getByRole('button', { name: 'Revisar Casa en Coyoacán, lote 12' }).click();
    const people = page.getByTestId('person-screening');
    await expect(people).toHaveCount(2);
    await expect(people.nth(0).getByTestId('hit')).toContainText('UIF personas bloqueadas');
    await shoot(page, 'aml-hits-review');

    // The uploaded list's hit: discarded with a reason.
    await people.nth(0).getByRole('button', { name: 'Descartar' }).click();
    const dialog = page.getByTestId('hit-dialog');
    await dialog.getByLabel(/Motivo/).fill('La CURP y la fecha de nacimiento de la clienta no coinciden con la lista');
    await shoot(page, 'aml-hit-dialog');
    await dialog.getByRole('button', { name: 'Descartar' }).click();
    await expect(people.nth(0).getByTestId('hit')).toContainText('Descartada');
    await expect(page.getByTestId('operation-detail')).not.toContainText('Operación detenida');

    // The officer downloads Ana's expediente: the PDF names her, the list and version, the ruling.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      people.nth(0).getByRole('link', { name: 'Descargar expediente (PDF)' }).click(),
    ]);
    const pdf = path.join(screenshotDir, 'expediente-aml-hits.pdf');
    await download.saveAs(pdf);
    const text = execFileSync('pdftotext', ['-layout', pdf, '-']).toString().replace(/\s+/g, ' ');
    expect(text).toContain('Ana María Ruiz Soto');
    expect(text).toContain('UIF personas bloqueadas');
    expect(text).toContain('Descartada');
    expect(text).toContain('(UIF personas bloqueadas): La CURP y la fecha de nacimiento de la clienta no coinciden con la lista');
    execFileSync('pdftoppm', ['-png', '-r', '70', '-f', '1', '-l', '1', '-singlefile', pdf, path.join(screenshotDir, 'expediente-primera-pagina')]);
    expect(sql(`SELECT count(*) FROM aml_file_accesses`)).toBe('1');

    // The fixture UN list of test mode is imported when the scheduler starts (screening-un-list,
    // AtStart) and every 6 hours: the second person's hit needs it.
    await expect
      .poll(() => sql(`SELECT count(*) FROM aml_hits h JOIN screening_lists l ON l.id = h.list_id WHERE l.kind = 'un' AND l.test_mode`),
        { message: "the fixture UN list was imported and the second person screened against it", timeout: 30_000, intervals: [2_000] })
      .toBe('1');
    await page.reload();
    await page.getByRole('tab', { name: /Operaciones/ }).click();
    await page.getByRole('button', { name: 'Revisar Casa en Coyoacán, lote 12' }).click();

    // The UN hit: confirmed; the operation stops.
    await people.nth(1).getByRole('button', { name: 'Confirmar' }).first().click();
    await expect(dialog).toContainText('vence en 24 horas');
    await dialog.getByLabel(/Motivo/).fill('Nombre y fecha de nacimiento coinciden con la lista consolidada de la ONU');
    await dialog.getByRole('button', { name: 'Confirmar' }).click();
    await expect(page.getByTestId('stopped-banner')).toContainText('Operación detenida');
    await expect(page.getByRole('button', { name: 'Confirmar' })).toHaveCount(0);
    await shoot(page, 'aml-operation-stopped');
    expect(sql(`SELECT count(*) FROM aml_avisos WHERE kind = 'sospechosa' AND test_mode AND due_at > now() + interval '23 hours'`)).toBe('1');

    // The 24-hour aviso is in the Avisos tab.
    await page.getByRole('tab', { name: 'Avisos' }).click();
    await expect(page.getByTestId('aviso-row').filter({ hasText: 'Aviso de operación sospechosa (24 horas)' })).toHaveCount(1);
    await shoot(page, 'aml-avisos');
  });
});

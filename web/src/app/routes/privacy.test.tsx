import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { legalInfoFixture as legal } from '@/testing/legal-info'
import { mockApi, screenCalls } from '@/testing/mock-api'
import { renderRoute, renderRouteWithUser } from '@/testing/render-route'
import { expectTextContents } from '@/testing/expect-text'

/** The heading levels in document order never skip one (h1 → h2 → h3). */
function headingLevels(): number[] {
  return screen.getAllByRole('heading').map((h) => Number(h.tagName.slice(1)))
}

describe('/privacidad', () => {
  it('shows the notice with the version, the responsible party and every retention row from GET /api/legal', async () => {
    const { calls } = mockApi({ 'GET /api/legal': { json: legal } })
    renderRoute('/privacidad')

    expect(await screen.findByText('Versión 2026-11-28 · vigente desde 28 de noviembre de 2026')).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 1, name: 'Aviso de privacidad integral' })).toBeInTheDocument()
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1)
    expect(document.title).toBe('Aviso de privacidad | Perfil Seguro')
    expect(screenCalls(calls).map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/legal'])

    const responsible = screen.getByRole('heading', { level: 2, name: 'Responsable de tus datos' }).parentElement!
    expect(responsible).toHaveTextContent(legal.legalName)
    expect(responsible).toHaveTextContent(legal.legalAddress)
    expect(within(responsible).getByRole('link', { name: legal.privacyEmail })).toHaveAttribute('href', 'mailto:privacidad@perfilseguro.mx')

    const table = screen.getByRole('table', { name: 'Plazos de conservación de tus datos' })
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Dato', 'Plazo'])
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows).toHaveLength(legal.retention.length)
    legal.retention.forEach((r, i) => {
      expect(within(rows[i]).getByRole('rowheader')).toHaveTextContent(r.data)
      expect(within(rows[i]).getByRole('cell')).toHaveTextContent(r.period)
    })
    expect(table.parentElement).toHaveClass('overflow-x-auto')
  })

  it('has a linkable h2 per section, headings in order and the sensitive-data promises', async () => {
    mockApi({ 'GET /api/legal': { json: legal } })
    renderRoute('/privacidad')
    await screen.findByTestId('legal-version')

    for (const id of ['responsable', 'datos', 'finalidades', 'datos-sensibles', 'transferencias', 'derechos-arco', 'revocacion', 'autoridad', 'conservacion', 'cookies', 'cambios']) {
      const heading = document.getElementById(id)
      expect(heading?.tagName, id).toBe('H2')
      expect(screen.getByRole('navigation', { name: 'Contenido' })).toContainElement(
        screen.getAllByRole('link').find((a) => a.getAttribute('href') === `#${id}`) ?? null,
      )
    }
    const levels = headingLevels()
    levels.slice(1).forEach((level, i) => expect(level - levels[i]).toBeLessThanOrEqual(1))

    const main = screen.getByRole('main')
    expectTextContents(main, [
      'Nunca guardamos imágenes de tu rostro ni de tu identificación.',
      /datos personales sensibles/,
      /consentimiento expreso para esa finalidad, por separado de este aviso/,
      /Nunca recibimos ni guardamos el número de tu tarjeta/,
      /Nunca mostramos a nadie la dirección IP de quien consultó un perfil/,
      /20 días hábiles/,
      /15 días hábiles/,
      /No usamos cookies de publicidad ni herramientas de analítica de terceros/,
    ])
    expect(main).not.toHaveTextContent(/certific|auditor|auditad/i)
    expect(main).not.toHaveTextContent(/\bISO\b/)
  })

  it('lists both secondary purposes in their own list, apart from the primary ones, with the way to object', async () => {
    mockApi({ 'GET /api/legal': { json: legal } })
    renderRoute('/privacidad')
    const secondary = await screen.findByTestId('secondary-purposes')
    const primary = screen.getByTestId('primary-purposes')

    const items = within(secondary).getAllByRole('listitem')
    expect(items).toHaveLength(2)
    legal.secondaryPurposes.forEach((p, i) => {
      expect(items[i]).toHaveTextContent(p.label)
      expect(items[i]).toHaveTextContent(p.description)
      expect(primary).not.toHaveTextContent(p.label)
    })
    expect(screen.getByRole('heading', { level: 3, name: 'Finalidades necesarias (primarias)' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 3, name: 'Finalidades voluntarias (secundarias)' })).toBeInTheDocument()
    expect(secondary.nextElementSibling).toHaveTextContent(/Puedes oponerte a ellas en cualquier momento desde Mi Perfil › Mis datos/)
    expect(secondary.nextElementSibling).toHaveTextContent(/Negarte no afecta tu validación ni el servicio/)
  })

  it('lists the necessary purposes from GET /api/legal, the source the simplified notice reads too', async () => {
    mockApi({ 'GET /api/legal': { json: legal } })
    renderRoute('/privacidad')
    const items = within(await screen.findByTestId('primary-purposes')).getAllByRole('listitem')
    expect(items).toHaveLength(legal.primaryPurposes.length)
    legal.primaryPurposes.forEach((p, i) => {
      expect(items[i]).toHaveTextContent(p.label)
      expect(items[i]).toHaveTextContent(p.description)
    })
  })

  it("names the identity document's data, the keyed hash of one ID, one profile, their purposes and their retention (issue 52)", async () => {
    mockApi({ 'GET /api/legal': { json: legal } })
    renderRoute('/privacidad')
    const list = await screen.findByTestId('document-data')
    const section = document.getElementById('datos')!.parentElement!
    expect(section).toContainElement(list)
    expect(within(section).getByRole('heading', { level: 3, name: 'Datos de tu identificación oficial' })).toBeInTheDocument()
    for (const word of [/nombres y apellidos/, /fecha de nacimiento/, /sexo/, /nacionalidad/, /tipo de identificación/, /número de la identificación/, /CURP/, /domicilio/, /vigencia/]) {
      expect(list).toHaveTextContent(word)
    }
    expect(section).toHaveTextContent(/El número, la CURP y el domicilio los guardamos cifrados/)
    expect(section).toHaveTextContent(/huella cifrada de tu CURP/)
    expect(section).toHaveTextContent(/«una identificación, un perfil»/)
    expect(section).toHaveTextContent(/los borramos, con la huella, al eliminarla/)
    expect(screen.getByTestId('primary-purposes')).toHaveTextContent(/Una identificación, un perfil\. Guardamos una huella cifrada/)
    const table = screen.getByRole('table', { name: 'Plazos de conservación de tus datos' })
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent(/datos que el proveedor leyó de tu identificación oficial/)
    const transfers = document.getElementById('transferencias')!.parentElement!
    expect(transfers).toHaveTextContent(/Tu fecha de nacimiento, tu CURP y los demás datos de tu identificación solo los reciben si la plataforma los pide y tú lo aceptas/)
  })

  it('names the Secretaría Anticorrupción y Buen Gobierno (LFPDPPP 2025), its website and what a person may file with it', async () => {
    mockApi({ 'GET /api/legal': { json: legal } })
    renderRoute('/privacidad')
    await screen.findByTestId('legal-version')
    const main = screen.getByRole('main')
    expect(main).not.toHaveTextContent(/la autoridad competente/i)

    const section = screen.getByRole('heading', { level: 2, name: 'Autoridad de protección de datos' }).parentElement!
    expectTextContents(section, [
      'Secretaría Anticorrupción y Buen Gobierno',
      /21 de marzo de 2025/,
      /procedimiento de protección de derechos/,
      /denuncia/,
    ])
    const site = within(section).getByRole('link', { name: /gob\.mx\/buengobierno/ })
    expect(site).toHaveAttribute('href', 'https://www.gob.mx/buengobierno')
    expect(site).toHaveAttribute('target', '_blank')

    // The ARCO section sends a person who disagrees there.
    const arco = screen.getByRole('heading', { level: 2, name: 'Derechos ARCO' }).parentElement!
    expect(arco).toHaveTextContent(/puedes acudir a la Secretaría Anticorrupción y Buen Gobierno/)
    expect(within(arco).getByRole('link', { name: 'Autoridad de protección de datos' })).toHaveAttribute('href', '#autoridad')
  })

  it('shows a skeleton while the facts load', async () => {
    let answer!: (reply: { json: unknown }) => void
    mockApi({ 'GET /api/legal': () => new Promise((resolve) => (answer = resolve)) })
    renderRoute('/privacidad')

    expect(await screen.findByTestId('legal-skeleton')).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 1, name: 'Aviso de privacidad integral' })).toBeInTheDocument()
    expect(screen.queryByTestId('legal-version')).not.toBeInTheDocument()

    await waitFor(() => expect(answer).toBeDefined())
    answer({ json: legal })
    expect(await screen.findByTestId('legal-version')).toBeInTheDocument()
    expect(screen.queryByTestId('legal-skeleton')).not.toBeInTheDocument()
  })

  it('shows an alert with a retry that fetches again after a failure', async () => {
    let failures = 1
    const { calls } = mockApi({
      'GET /api/legal': () => (failures-- > 0 ? { status: 500, text: 'boom' } : { json: legal }),
    })
    const { user } = renderRouteWithUser('/privacidad')

    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('No pudimos cargar el documento')
    expect(screen.queryByRole('table')).not.toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Reintentar' }))
    expect(await screen.findByTestId('legal-version')).toHaveTextContent('Versión 2026-11-28')
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    expect(calls.filter((c) => c.path === '/api/legal')).toHaveLength(2)
  })
})

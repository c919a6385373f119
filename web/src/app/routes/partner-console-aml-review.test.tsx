import { screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { mockApi, refusal } from '@/testing/mock-api'
import { renderRouteWithUser } from '@/testing/render-route'

vi.setConfig({ testTimeout: 30_000 })

// Issue 53 item 3 in the console: the compliance officer opens an operation's file, reads what
// each person was screened against and rules on each possible hit with a reason; the "Listas"
// tab uploads a list with its columns mapped and shows every version.

type Role = 'propietario' | 'cumplimiento' | 'lectura'

const ACTIONS: Record<Role, string[]> = {
  propietario: ['read', 'keys', 'webhook', 'origin', 'resend', 'team', 'operations', 'compliance'],
  cumplimiento: ['read', 'operations', 'compliance'],
  lectura: ['read'],
}

function me(role: Role) {
  return {
    user: {
      id: 9,
      email: 'oficial@casalista.mx',
      name: 'Olga Cumplido',
      role,
      createdAt: '2026-11-01T18:00:00Z',
      invitedBy: 'admin@perfilseguro.mx',
      disabledAt: null,
      enrolled: true,
      lastSignInAt: null,
    },
    partner: { id: 3, name: 'CasaLista', domain: 'https://www.casalista.mx', isActive: true },
    actions: ACTIONS[role],
    expiresAt: '2026-11-29T02:00:00Z',
  }
}

const hit = {
  id: 41,
  operationId: 'op_0123456789abcdef01234567',
  subject: 'persona',
  list: 'Lista UIF de la inmobiliaria',
  version: 2,
  entryId: 'UIF-001',
  matchedName: 'ANA RUIZ SOTTO',
  score: 0.93,
  reasons: ['nombre parecido', 'misma fecha de nacimiento'],
  blocking: true,
  status: 'pendiente',
  resolvedAt: null,
  createdAt: '2026-11-27T18:00:00Z',
}

const sale = {
  id: 'op_0123456789abcdef01234567',
  livemode: false,
  kind: 'compraventa',
  amount: '3500000.00',
  cash: '0.00',
  monthly: false,
  date: '2026-03-10',
  propertyReference: 'Casa en Coyoacán, lote 12',
  businessRole: 'intermediario',
  requirement: null,
  requirementNote: 'Sin tablas',
  people: [
    {
      id: 7,
      role: 'comprador',
      sessionId: 'vs_0123456789abcdef01234567',
      name: 'Ana Ruiz',
      identityVerified: true,
      screening: {
        locked: false,
        lists: [
          {
            subject: 'persona',
            source: 'lista',
            list: 'Lista UIF de la inmobiliaria',
            version: 2,
            versionDate: '2026-11-20T18:00:00Z',
            checkedAt: '2026-11-27T18:00:00Z',
            candidates: 1,
            screenedName: 'ANA RUIZ SOTO',
          },
        ],
        hits: [hit],
      },
    },
  ],
  createdAt: '2026-03-10T18:00:00Z',
  retentionUntil: '2036-03-10',
  stopped: false,
  stoppedAt: null,
}

function consoleApi(role: Role, extra: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    'GET /api/socios/me': { json: me(role) },
    'GET /api/socios/keys': { json: [] },
    'GET /api/socios/origin': { json: { origin: 'https://www.casalista.mx', proven: true, liveNeedsProof: false } },
    'GET /api/socios/operations': { json: { mode: 'test', peopleHidden: role === 'lectura', hasMore: false, data: [sale] } },
    'GET /api/socios/operation-candidates': { json: { mode: 'test', data: [] } },
    'GET /api/socios/hits/pending': {
      json: { mode: 'test', count: 1, data: [{ ...hit, propertyReference: sale.propertyReference, personName: 'ANA RUIZ SOTO' }] },
    },
    [`GET /api/socios/operations/${sale.id}`]: { json: sale },
    ...extra,
  })
}

describe('/socios › Operaciones › Revisar', () => {
  beforeEach(() => {
    window.localStorage.setItem('ps_console', '1')
  })

  it('shows the pending count, the file and discards a hit with a reason', async () => {
    const { calls } = consoleApi('cumplimiento', {
      [`POST /api/socios/hits/${hit.id}/resolution`]: {
        json: { hit: { ...hit, status: 'descartada', resolutionReason: 'CURP distinta', resolvedBy: 'oficial@casalista.mx' }, operationStopped: false, aviso: null },
      },
    })
    const { user } = renderRouteWithUser('/socios')
    expect(await screen.findByTestId('pending-hits-badge')).toHaveTextContent('1')
    await user.click(await screen.findByRole('tab', { name: /Operaciones/ }))
    expect(await screen.findByTestId('pending-hits')).toHaveTextContent('Hay 1 posible coincidencia en listas por revisar.')
    await user.click(await screen.findByRole('button', { name: 'Revisar Casa en Coyoacán, lote 12' }))

    const person = await screen.findByTestId('person-screening')
    expect(person).toHaveTextContent('Comprador: Ana Ruiz')
    expect(person).toHaveTextContent('Lista UIF de la inmobiliaria · versión 2 del 20/11/2026')
    expect(person).toHaveTextContent('1 candidato(s)')
    const card = within(person).getByTestId('hit')
    expect(card).toHaveTextContent('«ANA RUIZ SOTTO»')
    expect(card).toHaveTextContent('Pendiente de revisar')
    expect(card).toHaveTextContent('parecido 93 %')
    expect(card).toHaveTextContent('Por qué: nombre parecido; misma fecha de nacimiento')

    await user.click(within(card).getByRole('button', { name: 'Descartar' }))
    const dialog = await screen.findByTestId('hit-dialog')
    expect(within(dialog).getByRole('heading', { name: 'Descartar la coincidencia' })).toBeInTheDocument()
    // Too short: the dialog says so and nothing is sent.
    await user.type(within(dialog).getByLabelText(/Motivo/), 'no')
    await user.click(within(dialog).getByRole('button', { name: 'Descartar' }))
    expect(await within(dialog).findByText('Explica el motivo de la resolución (al menos 5 caracteres).')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST')).toBe(false)

    await user.clear(within(dialog).getByLabelText(/Motivo/))
    await user.type(within(dialog).getByLabelText(/Motivo/), 'CURP distinta')
    await user.click(within(dialog).getByRole('button', { name: 'Descartar' }))
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true))
    const post = calls.find((c) => c.method === 'POST')
    expect(post?.path).toBe(`/api/socios/hits/${hit.id}/resolution`)
    expect(post?.url.searchParams.get('mode')).toBe('test')
    expect(post?.body).toEqual({ decision: 'descartada', reason: 'CURP distinta' })
    expect(await screen.findByText('Coincidencia descartada')).toBeInTheDocument()
  })

  it('warns before confirming a blocked-list hit and shows the server refusal in the dialog', async () => {
    consoleApi('propietario', {
      [`POST /api/socios/hits/${hit.id}/resolution`]: refusal(409, 'Esta posible coincidencia ya se resolvió; la resolución no se puede cambiar.'),
    })
    const { user } = renderRouteWithUser('/socios')
    await user.click(await screen.findByRole('tab', { name: /Operaciones/ }))
    await user.click(await screen.findByRole('button', { name: 'Revisar Casa en Coyoacán, lote 12' }))
    await user.click(await screen.findByRole('button', { name: 'Confirmar' }))
    const dialog = await screen.findByTestId('hit-dialog')
    expect(within(dialog).getByRole('alert')).toHaveTextContent('detiene la operación y genera el aviso de operación sospechosa, que vence en 24 horas')
    await user.type(within(dialog).getByLabelText(/Motivo/), 'Coincide con la lista')
    await user.click(within(dialog).getByRole('button', { name: 'Confirmar' }))
    expect(await within(dialog).findByText('Esta posible coincidencia ya se resolvió; la resolución no se puede cambiar.')).toBeInTheDocument()
  })

  it('shows a stopped operation with its banner and no actions', async () => {
    const stopped = {
      ...sale,
      stopped: true,
      stoppedAt: '2026-11-27T19:00:00Z',
      stoppedReason: 'Coincidencia confirmada en la lista «Lista consolidada ONU»: coincide',
      people: [{ ...sale.people[0], screening: { ...sale.people[0]!.screening, hits: [{ ...hit, status: 'confirmada', resolvedBy: 'oficial@casalista.mx', resolutionReason: 'coincide', resolvedAt: '2026-11-27T19:00:00Z' }] } }],
    }
    consoleApi('cumplimiento', { [`GET /api/socios/operations/${sale.id}`]: { json: stopped }, 'GET /api/socios/operations': { json: { mode: 'test', peopleHidden: false, hasMore: false, data: [stopped] } } })
    const { user } = renderRouteWithUser('/socios')
    await user.click(await screen.findByRole('tab', { name: /Operaciones/ }))
    expect(await screen.findByText('Operación detenida')).toBeInTheDocument()
    await user.click(await screen.findByRole('button', { name: 'Revisar Casa en Coyoacán, lote 12' }))
    expect(await screen.findByTestId('stopped-banner')).toHaveTextContent('Operación detenida')
    expect(screen.getByTestId('hit')).toHaveTextContent('Confirmada')
    expect(screen.queryByRole('button', { name: 'Descartar' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Confirmar' })).not.toBeInTheDocument()
  })

  it('gives lectura neither the review nor the lists', async () => {
    const { calls } = consoleApi('lectura')
    const { user } = renderRouteWithUser('/socios')
    await user.click(await screen.findByRole('tab', { name: /Operaciones/ }))
    await screen.findAllByTestId('operation-row')
    expect(screen.queryByRole('button', { name: /Revisar/ })).not.toBeInTheDocument()
    await user.click(screen.getByRole('tab', { name: 'Listas' }))
    expect(await screen.findByText('Solo los roles Propietario y Cumplimiento administran las listas.')).toBeInTheDocument()
    expect(calls.some((c) => c.path.startsWith('/api/socios/hits') || c.path.startsWith('/api/socios/screening-lists'))).toBe(false)
  })
})

describe('/socios › Listas', () => {
  beforeEach(() => {
    window.localStorage.setItem('ps_console', '1')
  })

  it('previews a file, maps its columns, imports it and lists every version', async () => {
    const { calls } = consoleApi('cumplimiento', {
      'GET /api/socios/screening-lists': {
        json: {
          mode: 'test',
          data: [
            {
              id: 5,
              name: 'UIF personas bloqueadas',
              kind: 'uif_upload',
              public: false,
              versions: [
                { version: 2, importedAt: '2026-11-27T18:00:00Z', fileName: 'uif-2026-11.csv', sha256: 'ab'.repeat(32), entries: 1234 },
                { version: 1, importedAt: '2026-10-27T18:00:00Z', fileName: 'uif-2026-10.csv', sha256: 'cd'.repeat(32), entries: 1200 },
              ],
            },
          ],
        },
      },
      'POST /api/socios/screening-lists/preview': {
        json: {
          fileName: 'uif.csv',
          columns: ['Folio', 'Apellidos', 'Nombre(s)'],
          sample: [['UIF-1', 'Pérez Gómez', 'José Luis']],
          suggested: {
            nameColumn: '',
            givenNamesColumn: 'Nombre(s)',
            surnamesColumn: 'Apellidos',
            birthDateColumn: '',
            aliasesColumn: '',
            identifierColumn: '',
            referenceColumn: 'Folio',
          },
        },
      },
      'POST /api/socios/screening-lists': {
        status: 201,
        json: { listId: 5, name: 'UIF personas bloqueadas', version: 3, created: true, entries: 1, sha256: 'ef'.repeat(32), rescreenQueued: true },
      },
    })
    const { user } = renderRouteWithUser('/socios')
    await user.click(await screen.findByRole('tab', { name: 'Listas' }))
    const rows = await screen.findAllByTestId('list-version-row')
    expect(rows).toHaveLength(2)
    expect(rows[0]).toHaveTextContent('UIF personas bloqueadas')
    expect(rows[0]).toHaveTextContent('uif-2026-11.csv')
    expect(rows[0]).toHaveTextContent('1,234')

    const file = new File(['Folio,Apellidos,Nombre(s)\nUIF-1,Pérez Gómez,José Luis\n'], 'uif.csv', { type: 'text/csv' })
    await user.upload(screen.getByLabelText(/Archivo \(CSV o XLSX/), file)
    expect(await screen.findByLabelText('Apellidos (si van aparte)')).toHaveValue('Apellidos')
    expect(screen.getByLabelText('Folio o referencia')).toHaveValue('Folio')
    expect(screen.getByRole('table', { name: 'Primeras filas del archivo' })).toHaveTextContent('José Luis')
    await user.selectOptions(screen.getByLabelText('Nombres (si van aparte)'), 'Nombre(s)')
    await user.clear(screen.getByLabelText(/Nombre de la lista/))
    await user.type(screen.getByLabelText(/Nombre de la lista/), 'UIF personas bloqueadas')
    await user.click(screen.getByRole('button', { name: 'Importar lista' }))
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/socios/screening-lists')).toBe(true))
    const post = calls.find((c) => c.method === 'POST' && c.path === '/api/socios/screening-lists')
    const form = post?.init?.body as FormData
    expect(form.get('name')).toBe('UIF personas bloqueadas')
    expect(form.get('surnamesColumn')).toBe('Apellidos')
    expect(form.get('givenNamesColumn')).toBe('Nombre(s)')
    expect(form.get('nameColumn')).toBeNull()
    expect((form.get('file') as File).name).toBe('uif.csv')
    expect(await screen.findByText('Lista importada: versión 3')).toBeInTheDocument()
  })

  it("shows the server's Spanish refusal of a malformed file", async () => {
    consoleApi('propietario', {
      'GET /api/socios/screening-lists': { json: { mode: 'test', data: [] } },
      'POST /api/socios/screening-lists/preview': refusal(400, 'No se importó la lista: fila 2: el CSV está mal formado: unas comillas no se cierran.'),
    })
    const { user } = renderRouteWithUser('/socios')
    await user.click(await screen.findByRole('tab', { name: 'Listas' }))
    await user.upload(await screen.findByLabelText(/Archivo \(CSV o XLSX/), new File(['"roto'], 'rota.csv', { type: 'text/csv' }))
    expect(await screen.findByText(/unas comillas no se cierran/)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Importar lista' })).not.toBeInTheDocument()
  })
})

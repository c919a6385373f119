import { screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { mockApi, refusal } from '@/testing/mock-api'
import { renderRouteWithUser } from '@/testing/render-route'

vi.setConfig({ testTimeout: 30_000 })

// Issue 53 item 4: the console's "Avisos" (api/aml_avisos.go): propietario and cumplimiento see
// what is due, overdue ones highlighted, download each as CSV and record the SAT's folio.

type Role = 'cumplimiento' | 'lectura'

const ACTIONS: Record<Role, string[]> = { cumplimiento: ['read', 'operations', 'compliance'], lectura: ['read'] }

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

const umbral = {
  id: '7',
  livemode: false,
  kind: 'umbral',
  kindText: 'Aviso por umbral',
  operation: { id: 'op_0123456789abcdef01234567', kind: 'compraventa', amount: '1000000.00', date: '2026-02-10', propertyReference: 'Casa en Coyoacán' },
  period: '2026-02',
  dueAt: '2026-03-18T05:59:59Z',
  state: 'vencido',
}
const sospechosa = {
  id: '8',
  livemode: false,
  kind: 'sospechosa',
  kindText: 'Aviso de operación sospechosa (24 horas)',
  operation: { ...umbral.operation, id: 'op_0123456789abcdef0123abcd' },
  alert: 'Coincidencia confirmada con «Ana Ruiz Pérez» en Lista de Personas Bloqueadas (UIF)',
  dueAt: '2026-11-29T16:00:00Z',
  state: 'pendiente',
}
const report = {
  id: '9',
  livemode: false,
  kind: 'sin_operaciones',
  kindText: 'Informe de mes sin operaciones objeto de aviso',
  period: '2026-03',
  dueAt: '2026-04-18T05:59:59Z',
  state: 'presentado',
  acknowledgement: 'SAT-2026-000123',
  filedBy: 'oficial@casalista.mx',
}

function consoleApi(role: Role, extra: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    'GET /api/socios/me': { json: me(role) },
    'GET /api/socios/keys': { json: [] },
    'GET /api/socios/origin': { json: { origin: 'https://www.casalista.mx', proven: true, liveNeedsProof: false } },
    'GET /api/socios/hits/pending': { json: { mode: 'test', count: 0, data: [] } },
    'GET /api/socios/avisos': { json: { mode: 'test', data: [umbral, sospechosa, report] } },
    ...extra,
  })
}

describe('/socios › Avisos', () => {
  beforeEach(() => {
    window.localStorage.setItem('ps_console', '1')
  })

  it('lists what is due with the deadline and state, the overdue one highlighted, each downloadable', async () => {
    const { calls } = consoleApi('cumplimiento')
    const { user } = renderRouteWithUser('/socios')
    await user.click(await screen.findByRole('tab', { name: 'Avisos' }))
    const rows = await screen.findAllByTestId('aviso-row')
    expect(rows).toHaveLength(3)
    const [first, second, third] = rows as [HTMLElement, HTMLElement, HTMLElement]
    expect(first).toHaveTextContent('Aviso por umbral')
    expect(first).toHaveTextContent('Compraventa · $1,000,000.00 MXN')
    expect(first).toHaveTextContent('Mes que se informa: febrero de 2026')
    expect(within(first).getByText('Vencido')).toBeInTheDocument()
    expect(first.className).toContain('bg-error')
    expect(second.className).not.toContain('bg-error')
    expect(second).toHaveTextContent('Coincidencia confirmada con «Ana Ruiz Pérez»')
    expect(within(second).getByText('Pendiente')).toBeInTheDocument()
    expect(third).toHaveTextContent('Sin operaciones objeto de aviso')
    expect(within(third).getByText('Presentado')).toBeInTheDocument()
    expect(third).toHaveTextContent('Folio SAT-2026-000123')
    expect(within(third).queryByRole('button', { name: 'Marcar como presentado' })).not.toBeInTheDocument()
    expect(screen.getByText(/1 aviso vencido/)).toBeInTheDocument()
    expect(within(first).getByRole('link', { name: 'Descargar CSV' })).toHaveAttribute('href', '/api/socios/avisos/7/export?mode=test')
    const list = calls.find((c) => c.path === '/api/socios/avisos')
    expect(list?.url.searchParams.get('mode')).toBe('test')
  })

  it('records the folio, refuses a malformed one before asking, and shows the server’s 409', async () => {
    const { calls } = consoleApi('cumplimiento', {
      'POST /api/socios/avisos/7/filing': { json: { ...umbral, state: 'presentado', acknowledgement: 'SAT-77' } },
      'POST /api/socios/avisos/8/filing': refusal(409, 'Este aviso ya está marcado como presentado; no se puede presentar dos veces.'),
    })
    const { user } = renderRouteWithUser('/socios')
    await user.click(await screen.findByRole('tab', { name: 'Avisos' }))
    const first = (await screen.findAllByTestId('aviso-row'))[0] as HTMLElement
    await user.type(within(first).getByLabelText('Folio del acuse del aviso 7'), 'folio con espacios')
    await user.click(within(first).getByRole('button', { name: 'Marcar como presentado' }))
    expect(await within(first).findByText(/Escribe el folio del acuse del SAT/)).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST')).toBe(false)

    await user.clear(within(first).getByLabelText('Folio del acuse del aviso 7'))
    await user.type(within(first).getByLabelText('Folio del acuse del aviso 7'), 'SAT-77')
    await user.click(within(first).getByRole('button', { name: 'Marcar como presentado' }))
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/socios/avisos/7/filing')).toBe(true))
    const post = calls.find((c) => c.method === 'POST' && c.path === '/api/socios/avisos/7/filing')
    expect(post?.body).toEqual({ acknowledgement: 'SAT-77' })
    expect(post?.url.searchParams.get('mode')).toBe('test')
    expect(await screen.findByText('Aviso marcado como presentado')).toBeInTheDocument()

    const second = screen.getAllByTestId('aviso-row')[1] as HTMLElement
    await user.type(within(second).getByLabelText('Folio del acuse del aviso 8'), 'SAT-78')
    await user.click(within(second).getByRole('button', { name: 'Marcar como presentado' }))
    expect(await within(second).findByText(/ya está marcado como presentado/)).toBeInTheDocument()
  })

  it('tells lectura that only Propietario and Cumplimiento see avisos, without asking the server', async () => {
    const { calls } = consoleApi('lectura')
    const { user } = renderRouteWithUser('/socios')
    await user.click(await screen.findByRole('tab', { name: 'Avisos' }))
    expect(await screen.findByText('Solo los roles Propietario y Cumplimiento ven y presentan los avisos.')).toBeInTheDocument()
    expect(screen.queryByTestId('aviso-row')).not.toBeInTheDocument()
    expect(calls.some((c) => c.path === '/api/socios/avisos')).toBe(false)
  })
})

describe('/socios › Operaciones › riesgo', () => {
  beforeEach(() => {
    window.localStorage.setItem('ps_console', '1')
  })

  it('shows each operation’s risk level with the factors that made it', async () => {
    consoleApi('cumplimiento', {
      'GET /api/socios/operations': {
        json: {
          mode: 'test',
          peopleHidden: false,
          hasMore: false,
          data: [
            {
              ...umbral.operation,
              livemode: false,
              monthly: false,
              cash: '150000.00',
              businessRole: 'intermediario',
              requirement: null,
              requirementNote: 'Sin cálculo',
              people: [],
              createdAt: '2026-02-10T18:00:00Z',
              retentionUntil: '2036-02-10',
              risk: {
                level: 'alto',
                score: 50,
                factors: [
                  { key: 'efectivo', text: 'Pago en efectivo por $150000.00', weight: 25 },
                  { key: 'monto_aviso', text: 'El monto alcanza el umbral de aviso', weight: 15 },
                  { key: 'nacionalidad_extranjera', text: 'Una persona con nacionalidad extranjera', weight: 10 },
                ],
              },
            },
          ],
        },
      },
      'GET /api/socios/operation-candidates': { json: { mode: 'test', data: [] } },
    })
    const { user } = renderRouteWithUser('/socios')
    await user.click(await screen.findByRole('tab', { name: 'Operaciones' }))
    const risk = await screen.findByTestId('operation-risk')
    expect(within(risk).getByText('Riesgo alto (50)')).toBeInTheDocument()
    expect(risk).toHaveTextContent('Pago en efectivo por $150000.00 (+25)')
    expect(risk).toHaveTextContent('Una persona con nacionalidad extranjera (+10)')
  })
})

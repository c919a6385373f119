import { screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { mockApi, refusal } from '@/testing/mock-api'
import { renderRouteWithUser } from '@/testing/render-route'

vi.setConfig({ testTimeout: 30_000 })

// Issue 53 item 1: the console's "Operaciones" (api/partner_console_operations.go). Every role
// reads the list; propietario and cumplimiento record operations and see the people.

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

const sale = {
  id: 'op_0123456789abcdef01234567',
  livemode: false,
  kind: 'compraventa',
  amount: '3500000.00',
  monthly: false,
  date: '2026-03-10',
  propertyReference: 'Casa en Coyoacán, lote 12',
  businessRole: 'intermediario',
  requirement: {
    identify: true,
    aviso: true,
    umaYear: 2026,
    umaDaily: '117.31',
    identificationThresholdPesos: '0.00',
    avisoThresholdPesos: '941412.75',
  },
  people: [{ role: 'comprador', sessionId: 'vs_0123456789abcdef01234567', name: 'Ana Ruiz', identityVerified: true }],
  createdAt: '2026-03-10T18:00:00Z',
  retentionUntil: '2036-03-10',
}

const rent = {
  ...sale,
  id: 'op_0123456789abcdef0123abcd',
  kind: 'arrendamiento',
  amount: '200000.00',
  monthly: true,
  businessRole: 'arrendador',
  requirement: { ...sale.requirement, aviso: false, identificationThresholdPesos: '188282.55', avisoThresholdPesos: '376565.10' },
}

const candidate = {
  sessionId: 'vs_0123456789abcdef01234567',
  reference: 'cliente-42',
  name: 'Ana Ruiz',
  profileId: 'PS-1234-5678-90',
  identityVerified: true,
  completedAt: '2026-11-20T18:00:00Z',
}

function consoleApi(role: Role, extra: Parameters<typeof mockApi>[0] = {}) {
  const peopleHidden = role === 'lectura'
  return mockApi({
    'GET /api/socios/me': { json: me(role) },
    'GET /api/socios/keys': { json: [] },
    'GET /api/socios/origin': { json: { origin: 'https://www.casalista.mx', proven: true, liveNeedsProof: false } },
    'GET /api/socios/operations': {
      json: { mode: 'test', peopleHidden, hasMore: false, data: [rent, sale].map((o) => (peopleHidden ? { ...o, people: [] } : o)) },
    },
    'GET /api/socios/operation-candidates': { json: { mode: 'test', data: [candidate] } },
    ...extra,
  })
}

describe('/socios › Operaciones', () => {
  beforeEach(() => {
    window.localStorage.setItem('ps_console', '1')
  })

  it('lists operations with the kind in words, pesos, the date, what the law requires and the people', async () => {
    consoleApi('cumplimiento')
    const { user } = renderRouteWithUser('/socios')
    await user.click(await screen.findByRole('tab', { name: 'Operaciones' }))
    const rows = await screen.findAllByTestId('operation-row')
    expect(rows).toHaveLength(2)
    const [first, second] = rows as [HTMLElement, HTMLElement]
    expect(first).toHaveTextContent('Arrendamiento')
    expect(first).toHaveTextContent('$200,000.00 MXN al mes')
    expect(within(first).getByText('Identificación requerida')).toBeInTheDocument()
    expect(within(first).queryByText('Aviso requerido')).not.toBeInTheDocument()
    expect(second).toHaveTextContent('Compraventa')
    expect(second).toHaveTextContent('$3,500,000.00 MXN')
    expect(second).toHaveTextContent('10/03/2026')
    expect(second).toHaveTextContent('Casa en Coyoacán, lote 12')
    expect(within(second).getByText('Aviso requerido')).toBeInTheDocument()
    expect(second).toHaveTextContent('Comprador: Ana Ruiz')
    expect(within(second).getByText('Identidad verificada con documento')).toBeInTheDocument()
  })

  it('records an operation with a person chosen from the completed sessions', async () => {
    const { calls } = consoleApi('cumplimiento', {
      'POST /api/socios/operations': { status: 201, json: sale },
    })
    const { user } = renderRouteWithUser('/socios')
    await user.click(await screen.findByRole('tab', { name: 'Operaciones' }))
    await screen.findByRole('heading', { name: 'Registrar una operación' })
    // Nothing chosen and an amount with commas: the form says so before the server is asked.
    await user.type(screen.getByLabelText(/Monto en pesos/), '3,500,000')
    await user.click(screen.getByRole('button', { name: 'Registrar operación' }))
    expect(await screen.findByText(/El monto debe ser una cantidad en pesos/)).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST')).toBe(false)

    await user.clear(screen.getByLabelText(/Monto en pesos/))
    await user.type(screen.getByLabelText(/Monto en pesos/), '3500000.00')
    await user.type(screen.getByLabelText('Fecha de la operación'), '2026-03-10')
    await user.type(screen.getByLabelText('Referencia del inmueble'), 'Casa en Coyoacán, lote 12')
    await user.click(screen.getByRole('button', { name: 'Registrar operación' }))
    expect(await screen.findByText('Indica al menos una persona de la operación')).toBeInTheDocument()

    const row = (await screen.findAllByTestId('candidate-row'))[0] as HTMLElement
    expect(within(row).getByText('Identidad verificada con documento')).toBeInTheDocument()
    await user.click(within(row).getByRole('checkbox', { name: 'Incluir a Ana Ruiz' }))
    await user.selectOptions(screen.getByRole('combobox', { name: 'Papel de Ana Ruiz' }), 'vendedor')
    await user.click(screen.getByRole('button', { name: 'Registrar operación' }))
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/socios/operations')).toBe(true))
    const post = calls.find((c) => c.method === 'POST' && c.path === '/api/socios/operations')
    expect(post?.url.searchParams.get('mode')).toBe('test')
    expect(post?.body).toEqual({
      kind: 'compraventa',
      amount: '3500000.00',
      date: '2026-03-10',
      propertyReference: 'Casa en Coyoacán, lote 12',
      businessRole: 'intermediario',
      people: [{ sessionId: 'vs_0123456789abcdef01234567', role: 'vendedor' }],
    })
    expect(await screen.findByText('Operación registrada')).toBeInTheDocument()
  })

  it("shows the server's refusal of another platform's session", async () => {
    consoleApi('propietario', {
      'POST /api/socios/operations': refusal(422, 'La persona debe haber completado una verificación con tu plataforma.'),
    })
    const { user } = renderRouteWithUser('/socios')
    await user.click(await screen.findByRole('tab', { name: 'Operaciones' }))
    await user.type(await screen.findByLabelText(/Monto en pesos/), '200000')
    await user.type(screen.getByLabelText('Fecha de la operación'), '2026-03-10')
    await user.type(screen.getByLabelText('Referencia del inmueble'), 'Depto 4B')
    await user.click(screen.getByRole('checkbox', { name: 'Incluir a Ana Ruiz' }))
    await user.click(screen.getByRole('button', { name: 'Registrar operación' }))
    expect(await screen.findByText('La persona debe haber completado una verificación con tu plataforma.')).toBeInTheDocument()
  })

  it('shows lectura the list without people and without the form', async () => {
    const { calls } = consoleApi('lectura')
    const { user } = renderRouteWithUser('/socios')
    await user.click(await screen.findByRole('tab', { name: 'Operaciones' }))
    const rows = await screen.findAllByTestId('operation-row')
    expect(rows).toHaveLength(2)
    expect(rows[1]).toHaveTextContent('Solo Propietario y Cumplimiento')
    expect(screen.queryByText('Ana Ruiz')).not.toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Registrar una operación' })).not.toBeInTheDocument()
    expect(calls.some((c) => c.path === '/api/socios/operation-candidates')).toBe(false)
  })
})

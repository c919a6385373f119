import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { renderRoute } from '@/testing/render-route'
import { adminSession, signInAdmin } from '@/testing/admin'

vi.setConfig({ testTimeout: 30_000 })

// Issue 53 item 4: the risk weights in "Umbrales LFPIORPI" (api/admin_aml_risk.go): every role
// reads each factor's points and the cut-offs with their source; administradores change one.

const weights = [
  { key: 'pep', keyText: 'Persona políticamente expuesta (PEP) declarada', kind: 'factor', weight: 40, source: 'GAFI Recomendación 12', updatedAt: '2026-11-01T00:00:00Z' },
  { key: 'corte_alto', keyText: 'Puntaje desde el que el riesgo es alto', kind: 'corte', weight: 50, source: 'Corte propuesto por Perfil Seguro', updatedAt: '2026-11-01T00:00:00Z' },
]

function routes(role: 'soporte' | 'administrador', extra: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    'GET /api/admin/session': adminSession(role),
    'GET /api/users': { json: [] },
    'GET /api/admin/partners': { json: [] },
    'GET /api/admin/aml/uma': { json: [] },
    'GET /api/admin/aml/thresholds': { json: [] },
    'GET /api/admin/aml/risk-weights': { json: weights },
    ...extra,
  })
}

async function openTab() {
  signInAdmin()
  renderRoute('/admin')
  const user = userEvent.setup()
  await user.click(await screen.findByRole('tab', { name: 'Umbrales LFPIORPI' }))
  return user
}

describe('/admin › Umbrales LFPIORPI › Ponderaciones de riesgo', () => {
  it('shows soporte each weight with its source, and no form', async () => {
    routes('soporte')
    await openTab()
    const rows = await screen.findAllByTestId('aml-risk-weight-row')
    expect(rows).toHaveLength(2)
    expect(rows[0]).toHaveTextContent('Persona políticamente expuesta (PEP) declarada40GAFI Recomendación 12')
    expect(rows[1]).toHaveTextContent('Puntaje desde el que el riesgo es alto50')
    expect(screen.queryByRole('button', { name: 'Guardar ponderación' })).not.toBeInTheDocument()
  })

  it('lets an administrador change a cut-off, asking for the source first and showing the server’s refusal', async () => {
    const { calls } = routes('administrador', {
      'PUT /api/admin/aml/risk-weights': {
        status: 400,
        json: {
          message: 'El corte de riesgo alto debe ser mayor que el de riesgo medio (25)',
          errors: { weight: 'El corte de riesgo alto debe ser mayor que el de riesgo medio (25)' },
        },
      },
    })
    const user = await openTab()
    await screen.findAllByTestId('aml-risk-weight-row')
    await user.selectOptions(screen.getByLabelText('Factor o corte'), 'corte_alto')
    await user.type(screen.getByLabelText('Puntos'), '20')
    await user.click(screen.getByRole('button', { name: 'Guardar ponderación' }))
    expect(await screen.findByText('Indica la fuente o la razón del valor')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'PUT')).toBe(false)

    await user.type(screen.getByLabelText('Fuente o razón'), 'Acta del comité 3/2026')
    await user.click(screen.getByRole('button', { name: 'Guardar ponderación' }))
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true))
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ key: 'corte_alto', weight: 20, source: 'Acta del comité 3/2026' })
    expect((await screen.findAllByText('El corte de riesgo alto debe ser mayor que el de riesgo medio (25)')).length).toBeGreaterThan(0)
  })
})

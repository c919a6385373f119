import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { renderRoute } from '@/testing/render-route'
import { adminSession, signInAdmin } from '@/testing/admin'

vi.setConfig({ testTimeout: 30_000 })

// Issue 53: "Umbrales LFPIORPI" in the panel. Every role reads the UMA and the thresholds with
// their sources; administradores add a year's UMA or correct a threshold (api/admin_aml.go).

const umas = [
  { year: 2026, dailyValue: '117.31', validFrom: '2026-02-01', source: 'INEGI, comunicado del 8 de enero de 2026', updatedAt: '2026-11-01T00:00:00Z' },
  { year: 2025, dailyValue: '113.14', validFrom: '2025-02-01', source: 'INEGI, enero de 2025', updatedAt: '2026-11-01T00:00:00Z' },
]

const thresholds = [
  {
    activity: 'compraventa',
    activityText: 'Compraventa',
    validFrom: '2025-07-17',
    identificationUma: 0,
    identificationStrict: false,
    avisoUma: 8025,
    avisoStrict: false,
    monthly: false,
    source: 'LFPIORPI art. 17 fr. V, DOF 16/07/2025',
    umaYear: 2026,
    identificationPesos: '0.00',
    avisoPesos: '941412.75',
    updatedAt: '2026-11-01T00:00:00Z',
  },
  {
    activity: 'arrendamiento',
    activityText: 'Arrendamiento',
    validFrom: '2025-07-17',
    identificationUma: 1605,
    identificationStrict: true,
    avisoUma: 3210,
    avisoStrict: false,
    monthly: true,
    source: 'LFPIORPI art. 17 fr. XV, DOF 16/07/2025',
    umaYear: 2026,
    identificationPesos: '188282.55',
    avisoPesos: '376565.10',
    updatedAt: '2026-11-01T00:00:00Z',
  },
]

async function openTab() {
  signInAdmin()
  renderRoute('/admin')
  const user = userEvent.setup()
  await user.click(await screen.findByRole('tab', { name: 'Umbrales LFPIORPI' }))
  return user
}

describe('/admin › Umbrales LFPIORPI', () => {
  it('shows soporte both tables with their sources and the pesos today, and no form', async () => {
    mockApi({
      'GET /api/admin/session': adminSession('soporte'),
      'GET /api/users': { json: [] },
      'GET /api/admin/aml/uma': { json: umas },
      'GET /api/admin/aml/thresholds': { json: thresholds },
    })
    await openTab()
    const rows = await screen.findAllByTestId('aml-threshold-row')
    expect(rows[0]).toHaveTextContent('Compraventa17/07/2025SiempreDesde 8,025 UMA ($941,412.75 con la UMA 2026)LFPIORPI art. 17 fr. V')
    expect(rows[1]).toHaveTextContent('Más de 1,605 UMA al mes ($188,282.55 con la UMA 2026)')
    expect(rows[1]).toHaveTextContent('Desde 3,210 UMA al mes ($376,565.10 con la UMA 2026)')
    const uma = await screen.findAllByTestId('uma-row')
    expect(uma[0]).toHaveTextContent('2026$117.3101/02/2026INEGI, comunicado del 8 de enero de 2026')
    expect(screen.queryByRole('form', { name: 'Registrar UMA' })).not.toBeInTheDocument()
    expect(screen.queryByRole('form', { name: 'Corregir umbral' })).not.toBeInTheDocument()
  })

  it('lets an administrador register the next UMA, refusing it without a source first', async () => {
    let saved = umas
    const { calls } = mockApi({
      'GET /api/admin/session': adminSession('administrador'),
      'GET /api/users': { json: [] },
      'GET /api/admin/partners': { json: [] },
      'GET /api/admin/aml/uma': () => ({ json: saved }),
      'GET /api/admin/aml/thresholds': { json: thresholds },
      'PUT /api/admin/aml/uma': (body) => {
        const b = body as { year: number; dailyValue: string; source: string }
        const row = { ...b, validFrom: `${b.year}-02-01`, updatedAt: '2027-01-09T00:00:00Z' }
        saved = [row, ...umas]
        return { json: row }
      },
    })
    const user = await openTab()
    const form = await screen.findByRole('form', { name: 'Registrar UMA' })
    expect(within(form).getByLabelText('Año')).toHaveValue('2027')
    await user.type(within(form).getByLabelText('Valor diario (pesos)'), '0')
    await user.click(within(form).getByRole('button', { name: 'Guardar UMA' }))
    expect(await within(form).findByText('El valor diario de la UMA debe ser mayor que cero')).toBeInTheDocument()
    expect(within(form).getByText('Indica la fuente del valor (comunicado del INEGI o publicación en el DOF)')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'PUT')).toBe(false)

    await user.clear(within(form).getByLabelText('Valor diario (pesos)'))
    await user.type(within(form).getByLabelText('Valor diario (pesos)'), '121.05')
    await user.type(within(form).getByLabelText('Fuente'), 'INEGI, comunicado de enero de 2027')
    await user.click(within(form).getByRole('button', { name: 'Guardar UMA' }))
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ year: 2027, dailyValue: '121.05', source: 'INEGI, comunicado de enero de 2027' }),
    )
    expect(await screen.findByText('$121.05')).toBeInTheDocument()
  })

  it('corrects a threshold and puts the server’s refusal under its field', async () => {
    let tries = 0
    const { calls } = mockApi({
      'GET /api/admin/session': adminSession('administrador'),
      'GET /api/users': { json: [] },
      'GET /api/admin/partners': { json: [] },
      'GET /api/admin/aml/uma': { json: umas },
      'GET /api/admin/aml/thresholds': { json: thresholds },
      'PUT /api/admin/aml/thresholds': (body) => {
        tries++
        if (tries === 1)
          return { status: 400, json: { message: 'Indica la fuente legal', errors: { source: 'La fuente no puede ser solo espacios del servidor' } } }
        return { json: { ...thresholds[1], ...(body as object) } }
      },
    })
    const user = await openTab()
    const form = await screen.findByRole('form', { name: 'Corregir umbral' })
    await user.selectOptions(within(form).getByLabelText('Actividad'), 'arrendamiento')
    expect(within(form).getByLabelText('Identificación (UMA, 0 = siempre)')).toHaveValue('1605')
    expect(within(form).getByLabelText('Monto mensual (renta)')).toBeChecked()

    const aviso = within(form).getByLabelText('Aviso (UMA)')
    await user.clear(aviso)
    await user.type(aviso, '-3')
    await user.click(within(form).getByRole('button', { name: 'Guardar umbral' }))
    expect(await within(form).findByText('El umbral de aviso debe ser mayor que cero')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'PUT')).toBe(false)

    await user.clear(aviso)
    await user.type(aviso, '3300')
    await user.click(within(form).getByRole('button', { name: 'Guardar umbral' }))
    expect(await within(form).findByText('La fuente no puede ser solo espacios del servidor')).toBeInTheDocument()
    await user.click(within(form).getByRole('button', { name: 'Guardar umbral' }))
    await waitFor(() => expect(tries).toBe(2))
    expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({
      activity: 'arrendamiento',
      validFrom: '2025-07-17',
      identificationUma: 1605,
      identificationStrict: true,
      avisoUma: 3300,
      avisoStrict: false,
      monthly: true,
      source: 'LFPIORPI art. 17 fr. XV, DOF 16/07/2025',
    })
  })
})

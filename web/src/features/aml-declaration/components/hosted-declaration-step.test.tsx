import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mockApi, screenCalls } from '@/testing/mock-api'
import { renderRoute } from '@/testing/render-route'
import { hostedSecret as secret, hostedSessionView } from '@/testing/hosted-session'

vi.setConfig({ testTimeout: 20_000 })

// Issue 53 item 2: a session with amlProfile asks for the declaration before «Compartir», and
// «Compartir con {partner}» lists it.

afterEach(() => {
  window.sessionStorage.clear()
  vi.restoreAllMocks()
})

const signed = {
  version: 3,
  signedAt: '2026-11-20T18:00:00Z',
  method: 'codigo',
  textSha256: 'c'.repeat(64),
  answers: { occupation: 'Contadora', address: 'Calle Roble 12', rfc: 'GODE561231GR8', nationality: 'MEX', forBeneficiary: false, pep: false },
}

function open(current: object | null) {
  window.history.replaceState(null, '', `/conectar?pk=pk_live_0123456789abcdef01234567&mode=redirect#${secret}`)
  const session = hostedSessionView({
    livemode: true,
    signedIn: true,
    level: 3,
    blocker: '',
    userId: 7,
    amlProfile: true,
    claims: [{ key: 'name', label: 'Tu nombre completo', value: 'Ana López' }],
  })
  const { calls } = mockApi({
    'POST /api/hosted/open': { json: { flowToken: 'c'.repeat(64), session, openerConfirmed: true } },
    'GET /api/users/7/aml-declaration': {
      json: { current, history: current ? [current] : [], shares: [], prefill: { address: 'Calle Roble 12', nationality: 'MEX', nationalityFromId: true } },
    },
    'POST /api/hosted/decision': (body) => ({
      json: { id: 'vs_0123456789abcdef01234567', status: (body as { share: boolean }).share ? 'completed' : 'declined' },
    }),
  })
  renderRoute('/conectar')
  return calls
}

describe('the declaration in the hosted flow', () => {
  it('asks a person without one to answer it, and does not let them share before signing', async () => {
    open(null)
    expect(await screen.findByRole('form', { name: 'Declaración de conocimiento del cliente' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Compartir' })).toBeDisabled()
    const list = within(screen.getByText('Compartir con CasaLista (demo):').closest('section') as HTMLElement).getByRole('list')
    expect(within(list).getByText(/Tu declaración de conocimiento del cliente/)).toBeInTheDocument()
  })

  it('lets a person confirm their signed version is still true and shares that version', async () => {
    const user = userEvent.setup()
    const calls = open({ ...signed, text: 'Yo, Ana López…' })
    await user.click(await screen.findByRole('button', { name: 'Sigue siendo cierta' }))
    const item = document.querySelector('[data-claim="amlDeclaration"]')
    expect(item).toHaveTextContent('versión 3, firmada')
    await user.click(screen.getByRole('button', { name: 'Compartir' }))
    expect(await screen.findByText('Listo: compartiste tus datos.')).toBeInTheDocument()
    const decision = screenCalls(calls).find((c) => c.path === '/api/hosted/decision')
    expect(decision?.body).toEqual({ share: true, claims: ['name'], amlDeclarationVersion: 3 })
  })

  it('declining shares nothing, not even a signed declaration', async () => {
    const user = userEvent.setup()
    const calls = open({ ...signed, text: 'Yo, Ana López…' })
    await user.click(await screen.findByRole('button', { name: 'Sigue siendo cierta' }))
    await user.click(screen.getByRole('button', { name: 'No compartir' }))
    expect(await screen.findByText('No compartiste nada.')).toBeInTheDocument()
    expect(screenCalls(calls).find((c) => c.path === '/api/hosted/decision')?.body).toEqual({ share: false })
  })
})

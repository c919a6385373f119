import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mockApi, screenCalls } from '@/testing/mock-api'
import { renderRoute } from '@/testing/render-route'
import { hostedSecret as secret, hostedSessionView } from '@/testing/hosted-session'

// Issue 52 item 6: "Compartir con {partner}" names each claim of the ID in words, shows what will
// be shared, and the decision names exactly the claims the screen showed.

const idClaims = [
  { key: 'givenName', label: 'Tu nombre (como aparece en tu identificación)', value: 'Ana María' },
  { key: 'familyName', label: 'Tus apellidos', value: 'Ruiz Soto' },
  { key: 'birthdate', label: 'Tu fecha de nacimiento', value: '1990-05-17' },
  { key: 'ageOver18', label: 'Que eres mayor de 18 años (sin tu fecha de nacimiento)', value: true },
  { key: 'nationality', label: 'Tu nacionalidad', value: 'MEX' },
  { key: 'curp', label: 'Tu CURP', value: 'RUSA900517MJCZTN09' },
]

afterEach(() => {
  window.sessionStorage.clear()
  vi.restoreAllMocks()
})

function open(session: object) {
  window.history.replaceState(null, '', `/conectar?pk=pk_live_0123456789abcdef01234567&mode=redirect#${secret}`)
  const { calls } = mockApi({
    'POST /api/hosted/open': { json: { flowToken: 'c'.repeat(64), session, openerConfirmed: true } },
    'POST /api/hosted/decision': { json: { id: 'vs_0123456789abcdef01234567', status: 'completed' } },
  })
  renderRoute('/conectar')
  return calls
}

describe('Compartir con {partner}: the claims of the ID', () => {
  it('lists each claim of the ID in words with its value, and shares exactly those', async () => {
    const calls = open(hostedSessionView({ livemode: true, claims: idClaims, signedIn: true, level: 3, blocker: '' }))
    const heading = await screen.findByText('Compartir con CasaLista (demo):')
    const list = within(heading.closest('section') as HTMLElement).getByRole('list')
    const items = within(list).getAllByRole('listitem')
    expect(items.map((li) => li.textContent)).toEqual([
      'Tu nombre (como aparece en tu identificación): Ana María',
      'Tus apellidos: Ruiz Soto',
      'Tu fecha de nacimiento: 17/05/1990',
      'Que eres mayor de 18 años (sin tu fecha de nacimiento): Sí',
      'Tu nacionalidad: MEX',
      'Tu CURP: RUSA900517MJCZTN09',
    ])
    await userEvent.click(screen.getByRole('button', { name: 'Compartir' }))
    expect(await screen.findByText('Listo: compartiste tus datos.')).toBeInTheDocument()
    const decision = screenCalls(calls).find((c) => c.path === '/api/hosted/decision')
    expect(decision?.body).toEqual({ share: true, claims: ['givenName', 'familyName', 'birthdate', 'ageOver18', 'nationality', 'curp'] })
  })

  it('says which claims of the ID will not be shared, and leaves them out of the decision', async () => {
    const claims = [
      { key: 'name', label: 'Tu nombre completo', value: 'Ana Ruiz' },
      { key: 'birthdate', label: 'Tu fecha de nacimiento', unavailable: true },
      { key: 'curp', label: 'Tu CURP', unavailable: true },
    ]
    const calls = open(hostedSessionView({ livemode: true, claims, signedIn: true, level: 3, blocker: '' }))
    const curp = (await screen.findByText('Tu CURP')).closest('li') as HTMLElement
    expect(curp).toHaveTextContent('No se compartirá: tu perfil no se validó con los datos de tu identificación')
    expect(curp).not.toHaveTextContent('—')
    const name = screen.getByText(/Tu nombre completo/).closest('li') as HTMLElement
    expect(name).toHaveTextContent('Tu nombre completo: Ana Ruiz')
    expect(name).not.toHaveTextContent('No se compartirá')
    await userEvent.click(screen.getByRole('button', { name: 'Compartir' }))
    await screen.findByText('Listo: compartiste tus datos.')
    expect(screenCalls(calls).find((c) => c.path === '/api/hosted/decision')?.body).toEqual({ share: true, claims: ['name'] })
  })

  it('names the claims of the ID before sign-in, without values', async () => {
    const signedOut = idClaims.map(({ key, label }) => ({ key, label }))
    open(hostedSessionView({ livemode: true, claims: signedOut, signedIn: false, level: 0, blocker: 'Inicia sesión o regístrate para continuar.' }))
    expect(await screen.findByText('Tu CURP')).toBeInTheDocument()
    expect(screen.getByText('Que eres mayor de 18 años (sin tu fecha de nacimiento)')).toBeInTheDocument()
    expect(screen.queryByText(/RUSA900517/)).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Compartir' })).toBeDisabled()
  })
})

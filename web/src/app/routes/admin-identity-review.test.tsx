import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { mockApi, refusal } from '@/testing/mock-api'
import { renderRoute } from '@/testing/render-route'
import { adminSession, signInAdmin } from '@/testing/admin'

vi.setConfig({ testTimeout: 30_000 })

// Issue 52, item 2 (near): soporte and administradores review the checks whose ID could not be
// settled alone; approving or declining asks for a fresh passkey confirmation when the server wants one.

const webauthn = vi.hoisted(() => ({ startAuthentication: vi.fn() }))
vi.mock('@simplewebauthn/browser', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@simplewebauthn/browser')>()
  return { ...actual, browserSupportsWebAuthn: () => true, startAuthentication: webauthn.startAuthentication }
})

const review = {
  verificationId: 41,
  userId: 5,
  profileId: 'PS-1234-5678-90',
  typedName: 'Ana Ruiz Hernandes',
  documentName: 'Ana Ruiz Hernández',
  verdict: 'near',
  document: {
    type: 'ine',
    issuingCountry: 'MEX',
    issuingState: 'JALISCO',
    givenNames: 'ANA',
    firstSurname: 'RUIZ',
    secondSurname: 'HERNÁNDEZ',
    fullName: '',
    birthDate: '1981-04-05',
    sex: 'F',
    nationality: 'MEX',
    issueDate: '2024-06-10',
    expiryDate: '2035-12-31',
    curp: 'RUHA…09',
    number: 'IDME…01',
  },
  age: 45,
  findings: [
    { code: 'typo', text: 'Una letra distinta en «Hernandes».' },
    { code: 'registry_no_match', text: 'El registro oficial no coincide con el documento.' },
  ],
  nameScore: 0.96,
  curpValid: true,
  registry: [
    { registry: 'mex_curp', field: 'full_name', result: 'no_match' },
    { registry: 'mex_curp', field: 'date_of_birth', result: 'match' },
  ],
  scores: { faceMatch: 88, liveness: 97.25, document: 90, overall: 91.5 },
  checkedAt: '2026-11-27T18:00:00Z',
  resolution: null,
  resolvedAt: null,
  resolutionReason: null,
}

const reauth = { status: 403, json: { message: 'Confirma que eres tú con tu llave de acceso para continuar.', errors: { reauth: 'Confirma con tu llave de acceso (vale 5 minutos).' } } }

async function openQueue() {
  signInAdmin()
  renderRoute('/admin')
  const user = userEvent.setup()
  await user.click(await screen.findByRole('tab', { name: 'Revisión de identidad' }))
  return user
}

describe('/admin › Revisión de identidad', () => {
  beforeEach(() => {
    webauthn.startAuthentication.mockReset()
    webauthn.startAuthentication.mockResolvedValue({ id: 'Y3JlZA', rawId: 'Y3JlZA', type: 'public-key', response: {}, clientExtensionResults: {} })
  })

  it('lists each check with both names side by side, the document (masked), findings, registries and scores', async () => {
    mockApi({
      'GET /api/admin/session': adminSession('soporte'),
      'GET /api/users': { json: [] },
      'GET /api/admin/identity-reviews': { json: { reviews: [review] } },
    })
    await openQueue()
    const card = await screen.findByRole('article', { name: 'Revisión de Ana Ruiz Hernandes' })
    expect(within(card).getByTestId('typed-name')).toHaveTextContent('Ana Ruiz Hernandes')
    expect(within(card).getByTestId('document-name')).toHaveTextContent('Ana Ruiz Hernández')
    expect(within(card).getByText('En revisión')).toBeInTheDocument()
    expect(within(card).getByText('INE')).toBeInTheDocument()
    expect(within(card).getByText('ANA RUIZ HERNÁNDEZ')).toBeInTheDocument()
    expect(within(card).getByText('05/04/1981 (45 años)')).toBeInTheDocument()
    expect(within(card).getByText('31/12/2035')).toBeInTheDocument()
    expect(within(card).getByText('RUHA…09 · Válida')).toBeInTheDocument()
    expect(within(card).getByText('IDME…01')).toBeInTheDocument()
    expect(within(card).getByText('El registro oficial no coincide con el documento.')).toBeInTheDocument()
    const registries = within(card).getByRole('table', { name: 'Registros oficiales' })
    const rows = within(registries).getAllByRole('row')
    expect(rows[0]).toHaveTextContent('RENAPO (CURP)Nombre completoNo coincide')
    expect(rows[1]).toHaveTextContent('RENAPO (CURP)Fecha de nacimientoCoincide')
    expect(within(card).getByText('96 %')).toBeInTheDocument()
    expect(within(card).getByText('97.25')).toBeInTheDocument()
    expect(within(card).getByText('91.5')).toBeInTheDocument()
  })

  it('says when nothing waits', async () => {
    mockApi({
      'GET /api/admin/session': adminSession('administrador'),
      'GET /api/users': { json: [] },
      'GET /api/admin/partners': { json: [] },
      'GET /api/admin/identity-reviews': { json: { reviews: [] } },
    })
    await openQueue()
    expect(await screen.findByText('No hay revisiones pendientes.')).toBeInTheDocument()
  })

  it('approves after the passkey confirmation the server asks for, and the check leaves the queue', async () => {
    let approved = false
    let tries = 0
    const { calls } = mockApi({
      'GET /api/admin/session': adminSession('soporte'),
      'GET /api/users': { json: [] },
      'GET /api/admin/identity-reviews': () => ({ json: { reviews: approved ? [] : [review] } }),
      'POST /api/admin/identity-reviews/41/approve': () => {
        tries++
        if (tries === 1) return reauth
        approved = true
        return { json: { ...review, resolution: 'approved' } }
      },
      'POST /api/admin/reauth/options': { json: { publicKey: { challenge: 'Y2g', allowCredentials: [] } } },
      'POST /api/admin/reauth': { json: { freshUntil: '2026-11-28T03:05:00Z' } },
    })
    const user = await openQueue()
    const card = await screen.findByRole('article', { name: 'Revisión de Ana Ruiz Hernandes' })
    await user.click(within(card).getByRole('button', { name: 'Aprobar' }))
    const dialog = screen.getByRole('alertdialog', { name: 'Aprobar identidad' })
    expect(dialog).toHaveTextContent('quedará validado con el nombre de la identificación: Ana Ruiz Hernández')
    await user.click(within(dialog).getByRole('button', { name: 'Aprobar' }))

    expect(await screen.findByText('Ana Ruiz Hernández tiene su identidad validada. Le avisamos por correo.')).toBeInTheDocument()
    expect(webauthn.startAuthentication).toHaveBeenCalledTimes(1)
    const posts = calls.filter((c) => c.method === 'POST').map((c) => c.path)
    expect(posts).toEqual([
      '/api/admin/identity-reviews/41/approve',
      '/api/admin/reauth/options',
      '/api/admin/reauth',
      '/api/admin/identity-reviews/41/approve',
    ])
    expect(await screen.findByText('No hay revisiones pendientes.')).toBeInTheDocument()
  })

  it('declines only with a reason of 10 or more characters, and shows the server refusing a resolved check', async () => {
    const { calls } = mockApi({
      'GET /api/admin/session': adminSession('soporte'),
      'GET /api/users': { json: [] },
      'GET /api/admin/identity-reviews': { json: { reviews: [review] } },
      'POST /api/admin/identity-reviews/41/decline': refusal(409, 'Esta revisión ya fue resuelta.'),
    })
    const user = await openQueue()
    const card = await screen.findByRole('article', { name: 'Revisión de Ana Ruiz Hernandes' })
    await user.click(within(card).getByRole('button', { name: 'Rechazar' }))
    const dialog = screen.getByRole('alertdialog', { name: 'Rechazar revisión' })
    await user.click(within(dialog).getByRole('button', { name: 'Rechazar' }))
    expect(within(dialog).getByText('Escribe el motivo del rechazo (se le enviará a la persona).')).toBeInTheDocument()
    await user.type(within(dialog).getByRole('textbox', { name: 'Motivo del rechazo' }), 'Corta')
    await user.click(within(dialog).getByRole('button', { name: 'Rechazar' }))
    expect(within(dialog).getByText('El motivo debe tener al menos 10 caracteres.')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST')).toBe(false)

    await user.clear(within(dialog).getByRole('textbox', { name: 'Motivo del rechazo' }))
    await user.type(within(dialog).getByRole('textbox', { name: 'Motivo del rechazo' }), 'La foto no corresponde a la persona.')
    await user.click(within(dialog).getByRole('button', { name: 'Rechazar' }))
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')).toMatchObject({
        path: '/api/admin/identity-reviews/41/decline',
        body: { reason: 'La foto no corresponde a la persona.' },
      }),
    )
    expect(await within(dialog).findByText('Esta revisión ya fue resuelta.')).toBeInTheDocument()
    expect(webauthn.startAuthentication).not.toHaveBeenCalled()
  })

  it('finanzas has no review tab', async () => {
    mockApi({
      'GET /api/admin/session': adminSession('finanzas'),
      'GET /api/users': { json: [] },
    })
    signInAdmin()
    renderRoute('/admin')
    await waitFor(() => expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Usuarios', 'Ver Usuario', 'Umbrales LFPIORPI']))
    expect(screen.queryByRole('tab', { name: 'Revisión de identidad' })).not.toBeInTheDocument()
  })

  it("the user view shows the certifying document, masked, and the profile that presented the same ID", async () => {
    const user1 = {
      id: 5,
      nombre: 'Ana Ruiz Hernández',
      email: 'ana@example.com',
      origen: 'Otro',
      vigencia: 1,
      id_validado: 'PS-1234-5678-90',
      fecha_validacion: '2026-11-27T18:00:00Z',
      verificationLevel: 3,
      biometricVerified: true,
    }
    mockApi({
      'GET /api/admin/session': adminSession('soporte'),
      'GET /api/users': { json: [user1] },
      'GET /api/admin/users/5/payments': { json: [] },
      'GET /api/admin/users/5/identity': {
        json: {
          nameFromDocument: true,
          check: { ...review, typedName: 'Ana Ruiz Hernández', verdict: 'near', resolution: 'approved', resolutionReason: null },
          linked: [
            { userId: 9, profileId: 'PS-9999-8888-77', nombre: 'Ana R. H.', verificationId: 77, relation: 'presenter', at: '2026-11-28T01:00:00Z' },
          ],
        },
      },
    })
    signInAdmin()
    renderRoute('/admin')
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Ver Ana Ruiz Hernández' }))
    const section = await screen.findByRole('region', { name: 'Identificación oficial' })
    expect(await within(section).findByText('Nombre tomado de la identificación')).toBeInTheDocument()
    expect(within(section).getByText('Aprobada por un administrador')).toBeInTheDocument()
    expect(within(section).getByText('RUHA…09 · Válida')).toBeInTheDocument()
    const linked = within(section).getByTestId('linked-profiles')
    expect(linked).toHaveTextContent('Ana R. H.')
    expect(linked).toHaveTextContent('PS-9999-8888-77')
    expect(linked).toHaveTextContent('presentó la identificación que valida este perfil (rechazado)')
  })
})

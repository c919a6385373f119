import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { legalInfoFixture as legal } from '@/testing/legal-info'
import { mockApi, refusal } from '@/testing/mock-api'
import { renderRoute } from '@/testing/render-route'
import { hostedSecret as secret, hostedSessionView } from '@/testing/hosted-session'

// The aviso de privacidad simplificado (LFPDPPP 2025) where a screen collects personal data by
// electronic means: registration, invitation acceptance and a partner's hosted verification.

const invitation = {
  invitationCode: 'ABCDEFGHJKMN',
  inviteeName: 'Carlos Ruiz',
  inviteeEmail: 'carlos@example.com',
  type: 'broker',
  companyName: null,
  personalMessage: null,
  inviterName: 'Ana López',
  expiresAt: '2031-01-08T12:00:00Z',
  status: 'pending',
}

const view = hostedSessionView({
  livemode: true,
  claims: [{ key: 'name', label: 'Tu nombre completo' }],
  signedIn: false,
  level: 0,
  blocker: '',
})

afterEach(() => {
  window.sessionStorage.clear()
  vi.restoreAllMocks()
})

/** Checks the notice: heading, who is responsible, necessary vs voluntary purposes from GET /api/legal, the link. */
async function expectSimplifiedNotice(headingLevel: number) {
  const heading = await screen.findByRole('heading', { name: 'Aviso de privacidad simplificado', level: headingLevel })
  const notice = screen.getByTestId('simplified-notice')
  expect(notice).toContainElement(heading)
  expect(await within(notice).findByText(/Perfil Seguro, S\.A\. de C\.V\. \(«Perfil Seguro»\) es responsable de tus datos personales/)).toBeInTheDocument()

  expect(within(notice).getByRole('heading', { name: 'Finalidades necesarias' })).toBeInTheDocument()
  expect(within(notice).getByRole('heading', { name: 'Finalidades voluntarias (puedes negarte)' })).toBeInTheDocument()
  const necessary = within(within(notice).getByTestId('simplified-primary-purposes')).getAllByRole('listitem')
  expect(necessary.map((li) => li.textContent)).toEqual(legal.primaryPurposes.map((p) => p.label))
  const voluntary = within(within(notice).getByTestId('simplified-secondary-purposes')).getAllByRole('listitem')
  expect(voluntary.map((li) => li.textContent)).toEqual(legal.secondaryPurposes.map((p) => p.label))
  // A voluntary purpose is never listed as necessary.
  for (const p of legal.secondaryPurposes) expect(necessary.map((li) => li.textContent)).not.toContain(p.label)
  expect(notice).toHaveTextContent(legal.privacyEmail)
  // The identity document's data and the keyed hash (issue 52), outside the fold.
  const documentData = within(notice).getByTestId('simplified-document-data')
  expect(documentData).toHaveTextContent(/datos que el proveedor de verificación lee de tu identificación oficial/)
  expect(documentData).toHaveTextContent(/CURP/)
  expect(documentData).toHaveTextContent(/huella cifrada de tu CURP para que una identificación valide un solo perfil/)
  expect(documentData).toHaveTextContent(/Los borramos al eliminar tu cuenta/)

  // The purposes fold away (a phone screen); the heading and the full notice's link stay outside.
  const details = notice.querySelector('details')
  expect(details).not.toBeNull()
  expect(details).not.toContainElement(heading)
  const link = within(notice).getByRole('link', { name: /aviso de privacidad integral/ })
  expect(link).toHaveAttribute('href', '/privacidad')
  expect(link).toHaveAttribute('target', '_blank')
  expect(details).not.toContainElement(link)
}

describe('the simplified privacy notice', { timeout: 20_000 }, () => {
  it('shows on /register under the form', async () => {
    mockApi({})
    renderRoute('/register')
    await expectSimplifiedNotice(2)
    expect(screen.getByRole('button', { name: 'Continuar' })).toBeInTheDocument()
  })

  it('shows on /accept-invitation with the form', async () => {
    mockApi({ 'GET /api/invitations/validate': { json: { success: true, invitation } } })
    renderRoute('/accept-invitation?code=ABCDEFGHJKMN')
    await expectSimplifiedNotice(3)
    expect(screen.getByRole('button', { name: 'Aceptar invitación' })).toBeInTheDocument()
  })

  it("shows on a partner's verification (/conectar) while the person decides", async () => {
    window.history.replaceState(null, '', `/conectar?pk=pk_live_0123456789abcdef01234567#${secret}`)
    mockApi({ 'POST /api/hosted/open': { json: { flowToken: 'f'.repeat(64), session: view } } })
    renderRoute('/conectar')
    await expectSimplifiedNotice(3)
    expect(screen.getByRole('button', { name: 'No compartir' })).toBeInTheDocument()
  })

  it('keeps its heading and the link to the full notice when the facts cannot be read', async () => {
    mockApi({ 'GET /api/legal': refusal(500, 'x') })
    renderRoute('/register')
    const notice = await screen.findByTestId('simplified-notice')
    expect(within(notice).getByRole('heading', { name: 'Aviso de privacidad simplificado' })).toBeInTheDocument()
    expect(within(notice).getByRole('link', { name: /aviso de privacidad integral/ })).toHaveAttribute('href', '/privacidad')
  })
})

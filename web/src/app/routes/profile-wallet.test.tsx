import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { mockApi, type MockHandler } from '@/testing/mock-api'
import { renderRoute } from '@/testing/render-route'
import { profileRoutes, profileUser } from '@/testing/profile-user'

// Mi Perfil's credential card: "Agregar a una billetera digital" (OpenID4VCI credential offer).

const DAY = 24 * 60 * 60 * 1000

const validated = profileUser({ fecha_validacion: new Date(Date.now() - 30 * DAY).toISOString(), validUntil: new Date(Date.now() + 335 * DAY).toISOString(), verificationLevel: 3, biometricVerified: true })

const offerUri =
  'openid-credential-offer://?credential_offer_uri=http%3A%2F%2Flocalhost%3A8080%2Fapi%2Fcredential-offers%2Fabc'

function offer(extra: Record<string, unknown> = {}) {
  return {
    offerUri,
    credentialOfferUri: 'http://localhost:8080/api/credential-offers/abc',
    qrUrl: 'data:image/png;base64,iVBORw0KGgo=',
    expiresAt: new Date(Date.now() + 10 * 60 * 1000).toISOString(),
    channel: 'phone',
    message: 'Te hemos enviado un código de verificación por WhatsApp. Escríbelo en tu billetera cuando te lo pida.',
    ...extra,
  }
}

function api(offerReply: MockHandler) {
  return mockApi({ ...profileRoutes(validated), 'POST /api/users/7/credential-offers': offerReply })
}

async function openWalletOffer() {
  localStorage.setItem('userId', '7')
  renderRoute('/profile')
  const card = await screen.findByTestId('wallet-offer')
  await userEvent.click(within(card).getByRole('button', { name: 'Agregar a una billetera digital' }))
  return card
}

describe('/profile wallet offer', () => {
  it('shows the QR, the same-device link, the expiry and where the code went', async () => {
    const { calls } = api({ status: 201, json: offer() })
    const card = await openWalletOffer()
    const qr = await within(card).findByRole('img', { name: 'Código QR para agregar tu credencial a una billetera digital' })
    expect(qr).toHaveAttribute('src', 'data:image/png;base64,iVBORw0KGgo=')
    expect(within(card).getByRole('link', { name: 'Abrir en la billetera de este dispositivo' })).toHaveAttribute('href', offerUri)
    expect(card).toHaveTextContent('Válida por 10 minutos')
    expect(card).toHaveTextContent('Tu billetera te pedirá el código de 6 dígitos que te enviamos por WhatsApp.')
    const posts = calls.filter((c) => c.method === 'POST')
    expect(posts.map((c) => c.path)).toEqual(['/api/users/7/credential-offers'])
    expect(posts[0].init?.credentials).toBe('include')

    // Another offer on request (the server decides whether it is too soon).
    await userEvent.click(within(card).getByRole('button', { name: 'Crear otra oferta' }))
    await within(card).findByRole('img', { name: /Código QR/ })
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2)
  })

  it('says the code went by e-mail when the account has no phone', async () => {
    api({ status: 201, json: offer({ channel: 'email' }) })
    const card = await openWalletOffer()
    expect(await within(card).findByText(/que te enviamos a tu correo electrónico/)).toBeInTheDocument()
  })

  it.each([
    [409, 'Agrega un teléfono o un correo electrónico a tu cuenta para recibir el código de transacción.'],
    [429, 'Ya te enviamos un código. Podrás solicitar uno nuevo en 45 segundos.'],
    [503, 'Hay mucha demanda en este momento y tu código tardaría en llegar. Intenta nuevamente en un minuto.'],
  ])('shows the server message of a %i', async (status, message) => {
    api({ status, json: { message } })
    const card = await openWalletOffer()
    expect(await within(card).findByRole('alert')).toHaveTextContent(message)
    expect(within(card).queryByRole('img')).not.toBeInTheDocument()
    expect(within(card).getByRole('button', { name: 'Agregar a una billetera digital' })).toBeEnabled()
  })

  it('falls back to its own words when the answer has no message', async () => {
    api({ status: 500, text: '' })
    const card = await openWalletOffer()
    expect(await within(card).findByRole('alert')).toHaveTextContent(
      'No pudimos preparar la oferta para tu billetera. Intenta nuevamente.',
    )
  })
})

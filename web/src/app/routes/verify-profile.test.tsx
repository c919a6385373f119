import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { PUBLIC_REFRESH_MS, publicVerificationQueryOptions } from '@/features/public-verify/api/get-public-verification'
import { mockApi, refusal, screenCalls } from '@/testing/mock-api'
import { renderRoute } from '@/testing/render-route'

const verified = {
  profile: {
    nombre: 'María Fernanda López',
    telefono: '+52 •• •••• 5678',
    email: 'm•••@gmail.com',
    origen: 'CasaLista',
    id: 'PS-1234-5678-90',
    nivel_verificacion: 3,
    verificado: true,
    expirado: false,
    revocado: false,
    fecha_revocacion: null,
    fecha_validacion: '2026-03-07T12:00:00Z',
    fecha_expiracion: '2031-03-07T12:00:00Z',
    vigencia_anos: 5,
  },
  verification_details: {
    session_id: 'sess-42',
    ambiente: 'production',
    fecha_verificacion: '2026-03-07T11:59:00Z',
    scores: { overall: 97.5, face_match: 98, document: 96, liveness: 99 },
  },
  timestamp: '2026-11-21T10:00:00Z',
}

describe('/verify/:profileId', () => {
  it('paints the record the server put in the page without asking the API again', async () => {
    const block = document.createElement('script')
    block.type = 'application/json'
    block.id = 'ps-public-record'
    block.textContent = JSON.stringify(verified)
    document.head.appendChild(block)
    try {
      const { calls } = mockApi({ 'GET /api/verify/PS-1234-5678-90': { json: verified } })
      renderRoute('/verify/PS-1234-5678-90')
      expect(await screen.findByTestId('public-badge')).toHaveTextContent('Verificado')
      expect(screen.getByText('María Fernanda López')).toBeInTheDocument()
      expect(screenCalls(calls)).toEqual([])
    } finally {
      block.remove()
    }
  })

  it('ignores a record in the page that is for another profile', async () => {
    const block = document.createElement('script')
    block.type = 'application/json'
    block.id = 'ps-public-record'
    block.textContent = JSON.stringify({ ...verified, profile: { ...verified.profile, id: 'PS-9999-9999-99' } })
    document.head.appendChild(block)
    try {
      const { calls } = mockApi({ 'GET /api/verify/PS-1234-5678-90': { json: verified } })
      renderRoute('/verify/PS-1234-5678-90')
      expect(await screen.findByTestId('public-badge')).toHaveTextContent('Verificado')
      expect(screenCalls(calls).map((c) => c.path)).toEqual(['/api/verify/PS-1234-5678-90'])
    } finally {
      block.remove()
    }
  })

  it('shows the badge, the masked contacts and every detail', async () => {
    const { calls } = mockApi({ 'GET /api/verify/PS-1234-5678-90': { json: verified } })
    renderRoute('/verify/PS-1234-5678-90')
    expect(await screen.findByTestId('public-badge')).toHaveTextContent('Verificado')
    expect(screen.getByText('María Fernanda López')).toBeInTheDocument()
    expect(screen.getByText('+52 •• •••• 5678')).toBeInTheDocument()
    expect(screen.getByText('m•••@gmail.com')).toBeInTheDocument()
    expect(screen.getByText('CasaLista')).toBeInTheDocument()
    expect(screen.getByText('Nivel 3 de 3')).toBeInTheDocument()
    expect(screen.getByText('5 años')).toBeInTheDocument()
    expect(screen.getByText('7 de marzo de 2031')).toBeInTheDocument()
    expect(screen.getByText('sess-42')).toBeInTheDocument()
    expect(screen.getByText('Producción')).toBeInTheDocument()
    expect(screen.queryByText('production')).not.toBeInTheDocument()
    expect(screen.getByText('97.5%')).toBeInTheDocument()
    expect(screen.getByRole('progressbar', { name: 'Prueba de vida' })).toHaveAttribute('value', '99')
    expect(screenCalls(calls).map((c) => c.path)).toEqual(['/api/verify/PS-1234-5678-90'])
  })

  it('shows every date in Mexico City time and says so, and the environment in words', async () => {
    // 03:00 UTC on 8 March is 21:00 on 7 March in Mexico City: the page says the 7th wherever it is read.
    const late = { ...verified.profile, fecha_validacion: '2026-03-08T03:00:00Z' }
    mockApi({
      'GET /api/verify/PS-1234-5678-90': {
        json: { ...verified, profile: late, verification_details: { ...verified.verification_details, ambiente: 'development' } },
      },
    })
    renderRoute('/verify/PS-1234-5678-90')
    // Fecha de validación (03:00 UTC on the 8th) and Fecha de verificación (11:59 UTC on the 7th).
    expect(await screen.findAllByText('7 de marzo de 2026')).toHaveLength(2)
    expect(screen.queryByText('8 de marzo de 2026')).not.toBeInTheDocument()
    expect(screen.getByText(/hora de la Ciudad de México/)).toBeInTheDocument()
    expect(screen.getByText('Desarrollo (simulador)')).toBeInTheDocument()
  })

  it('shows Expirado and the expiry warning for an expired profile', async () => {
    mockApi({
      'GET /api/verify/PS-1234-5678-90': {
        json: { ...verified, profile: { ...verified.profile, expirado: true }, verification_details: null },
      },
    })
    renderRoute('/verify/PS-1234-5678-90')
    expect(await screen.findByTestId('public-badge')).toHaveTextContent('Expirado')
    expect(screen.getByText('Validación expirada')).toBeInTheDocument()
    expect(screen.getByText('Este perfil aún no tiene una verificación biométrica registrada.')).toBeInTheDocument()
  })

  it('shows Revocado and the revocation warning, over an expiry', async () => {
    mockApi({
      'GET /api/verify/PS-1234-5678-90': {
        json: {
          ...verified,
          profile: { ...verified.profile, verificado: false, expirado: true, revocado: true, fecha_revocacion: '2026-11-20T18:00:00Z' },
        },
      },
    })
    renderRoute('/verify/PS-1234-5678-90')
    expect(await screen.findByTestId('public-badge')).toHaveTextContent('Revocado')
    expect(screen.getByText('Validación revocada')).toBeInTheDocument()
    expect(screen.getByText(/revocó la validación de esta identidad el 20 de noviembre de 2026/)).toBeInTheDocument()
    // The level says revoked too (issue 38), never 'Nivel 3 de 3' beside it.
    expect(screen.getByText('Nivel de verificación').closest('div')).toHaveTextContent('Revocado')
    expect(screen.queryByText(/Nivel \d de 3/)).not.toBeInTheDocument()
    expect(screen.queryByText('Validación expirada')).not.toBeInTheDocument()
  })

  it('refuses a malformed id without calling the server', async () => {
    const { calls } = mockApi({})
    renderRoute('/verify/PS-12')
    expect(await screen.findByText('ID de perfil no válido')).toBeInTheDocument()
    expect(screenCalls(calls)).toHaveLength(0)
    // Headings do not skip a level: the failure's title is the h2 under the page's h1.
    expect(screen.getByRole('heading', { level: 2, name: 'ID de perfil no válido' })).toBeInTheDocument()
  })

  it("shows the server's message for an unknown profile", async () => {
    mockApi({ 'GET /api/verify/PS-0000-0000-00': refusal(404, 'No se encontró ningún perfil con ese ID.') })
    renderRoute('/verify/PS-0000-0000-00')
    expect(await screen.findByText('No se pudo verificar el perfil')).toBeInTheDocument()
    expect(screen.getByText('No se encontró ningún perfil con ese ID.')).toBeInTheDocument()
  })

  it("falls back to 'Error al verificar el perfil' when the body has no message", async () => {
    mockApi({ 'GET /api/verify/PS-0000-0000-00': { status: 500, text: '' } })
    renderRoute('/verify/PS-0000-0000-00')
    await waitFor(() => expect(screen.getByText('Error al verificar el perfil')).toBeInTheDocument())
  })

  it('refreshes every 30 seconds', () => {
    expect(PUBLIC_REFRESH_MS).toBe(30_000)
    expect(publicVerificationQueryOptions('PS-1234-5678-90').refetchInterval).toBe(30_000)
  })
})

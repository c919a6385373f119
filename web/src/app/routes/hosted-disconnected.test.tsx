import { screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { renderRoute } from '@/testing/render-route'
import { hostedSecret as secret, hostedSessionView } from '@/testing/hosted-session'

afterEach(() => {
  window.sessionStorage.clear()
  vi.restoreAllMocks()
})

describe('/conectar of a deactivated partner', () => {
  it('says the platform is no longer connected, offers no sign-in and no Compartir', async () => {
    window.history.replaceState(null, '', `/conectar?pk=pk_live_0123456789abcdef01234567#${secret}`)
    const view = hostedSessionView({
      signedIn: false,
      disconnected: true,
      blocker: 'Esta plataforma ya no está conectada con Perfil Seguro: no se compartirá ningún dato con ella. Puedes cerrar esta ventana.',
      claims: [{ key: 'name', label: 'Tu nombre completo' }],
    })
    mockApi({ 'POST /api/hosted/open': { json: { flowToken: 'd'.repeat(64), session: view, openerConfirmed: true } } })
    renderRoute('/conectar')
    expect(await screen.findByText('CasaLista (demo) ya no está conectada con Perfil Seguro')).toBeInTheDocument()
    expect(screen.getByText(/no se compartirá ningún dato con ella/)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Compartir' })).not.toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Iniciar Sesión' })).not.toBeInTheDocument()
  })
})

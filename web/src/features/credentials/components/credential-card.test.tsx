import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { CredentialCard } from './credential-card'

function renderCard() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  return render(
    <QueryClientProvider client={client}>
      <CredentialCard profileId="PS-2024-0917-42" userId="7" />
    </QueryClientProvider>,
  )
}

describe('CredentialCard', () => {
  it('shows the credential issued before (another sign-in) from the server instead of offering a new one', async () => {
    const { calls } = mockApi({
      'GET /api/credentials': { json: [{ id: 3, status: 'ready', credential: 'eyJ.a.b~', expiresAt: '2027-03-01T18:00:00Z' }] },
    })
    renderCard()
    expect(await screen.findByRole('button', { name: /Descargar credencial/ })).toBeInTheDocument()
    expect(screen.getByText('Vigente hasta el 1/3/2027.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Obtener mi credencial' })).not.toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0)
  })

  it('offers one when the server lists none', async () => {
    mockApi({ 'GET /api/credentials': { json: [] } })
    renderCard()
    expect(await screen.findByRole('button', { name: 'Obtener mi credencial' })).toBeEnabled()
  })
})

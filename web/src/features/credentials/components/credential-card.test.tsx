import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import fixture from '../lib/testdata/credential.json'
import { claimValue } from './credential-verifier'
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

  it('offers the ID’s data to share only in the credential of a profile certified by its ID', async () => {
    mockApi({
      'GET /api/credentials': { json: [{ id: 4, status: 'ready', credential: fixture.documentCredential, expiresAt: '2027-03-01T18:00:00Z' }] },
    })
    renderCard()
    expect(await screen.findByLabelText('CURP')).not.toBeChecked()
    expect(screen.getByLabelText('Nombre', { exact: true })).toBeChecked()
    for (const label of ['Nombre(s) según tu identificación', 'Apellidos según tu identificación', 'Fecha de nacimiento',
      'Que eres mayor de 18 años', 'Nacionalidad']) {
      expect(screen.getByLabelText(label)).not.toBeChecked()
    }
  })

  it('offers no ID data for a credential without it', async () => {
    mockApi({
      'GET /api/credentials': { json: [{ id: 5, status: 'ready', credential: fixture.credential, expiresAt: '2027-03-01T18:00:00Z' }] },
    })
    renderCard()
    expect(await screen.findByLabelText('Nombre', { exact: true })).toBeChecked()
    expect(screen.getByLabelText('Origen')).toBeInTheDocument()
    expect(screen.queryByLabelText('CURP')).not.toBeInTheDocument()
    expect(screen.queryByLabelText('Fecha de nacimiento')).not.toBeInTheDocument()
  })

  it('words the ID’s claims for the verifier', () => {
    expect(claimValue('birthdate', '1990-03-15')).toBe('15 de marzo de 1990')
    expect(claimValue('age_equal_or_over', { '18': true })).toBe('Mayor de 18 años')
    expect(claimValue('age_equal_or_over', {})).toBe('No divulgada')
    expect(claimValue('nationalities', ['MX'])).toBe('MX')
  })

  it('offers one when the server lists none', async () => {
    mockApi({ 'GET /api/credentials': { json: [] } })
    renderCard()
    expect(await screen.findByRole('button', { name: 'Obtener mi credencial' })).toBeEnabled()
  })
})

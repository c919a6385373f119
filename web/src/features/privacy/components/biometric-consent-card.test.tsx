import { useState } from 'react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router-dom'
import { describe, expect, it } from 'vitest'
import { ToastProvider } from '@/components/ui/toast'
import { mockApi } from '@/testing/mock-api'
import { BiometricConsentCard } from './biometric-consent-card'

// The page takes the card away as soon as the consents say it was given, which can happen before
// the answer's callbacks run; the person is told all the same.
function Page() {
  const [shown, setShown] = useState(true)
  return (
    <>
      <button onClick={() => setShown(false)}>quitar</button>
      {shown && <BiometricConsentCard userId="7" />}
    </>
  )
}

describe('BiometricConsentCard', () => {
  it('says the consent was recorded even when the card left the page meanwhile', async () => {
    let answer: (() => void) | undefined
    mockApi({
      'POST /api/users/7/consents': () =>
        new Promise((resolve) => {
          answer = () => resolve({ status: 201, json: { purpose: 'biometric', granted: true } })
        }),
    })
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    render(
      <MemoryRouter>
        <QueryClientProvider client={client}>
          <ToastProvider>
            <Page />
          </ToastProvider>
        </QueryClientProvider>
      </MemoryRouter>,
    )
    const user = userEvent.setup()
    await user.click(screen.getByRole('checkbox'))
    await user.click(screen.getByRole('button', { name: 'Otorgar consentimiento' }))
    await user.click(screen.getByRole('button', { name: 'quitar' }))
    expect(screen.queryByTestId('biometric-consent')).not.toBeInTheDocument()
    await act(async () => answer?.())
    expect(await screen.findByText('Consentimiento registrado')).toBeInTheDocument()
  })
})

import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { mockApi } from '@/testing/mock-api'
import { renderRoute } from '@/testing/render-route'
import { paymentsOff, profileRoutes, profileUser, signInProfile } from '@/testing/profile-user'

// Issue 53 item 6: Mi Perfil › Plataformas con acceso names the businesses that keep an LFPIORPI
// file about the person and until when — the business and the day, never the file.

function open(amlFiles: Array<{ partnerName: string; until: string }> | undefined) {
  signInProfile()
  mockApi({
    ...profileRoutes(profileUser({ verificationLevel: 3 })),
    'GET /api/payments/status': paymentsOff,
    'GET /api/users/7/partner-access': () => ({ json: { grants: [], ...(amlFiles ? { amlFiles } : {}) } }),
  })
  renderRoute('/profile')
}

describe('/profile Plataformas con acceso: files kept by law', () => {
  it('lists each business with the last day it keeps the file, and the legal reason', async () => {
    open([
      { partnerName: 'Inmobiliaria Diez Años', until: '2036-02-01' },
      { partnerName: 'CasaLista', until: '2035-12-31' },
    ])
    const files = await within(await screen.findByTestId('partner-access')).findByTestId('aml-files')
    const rows = within(files).getAllByTestId('aml-file')
    expect(rows.map((r) => r.textContent)).toEqual([
      'Inmobiliaria Diez Años · lo conserva hasta el 01/02/2036',
      'CasaLista · lo conserva hasta el 31/12/2035',
    ])
    expect(files).toHaveTextContent('(art. 18) las obliga a conservarlo 10 años desde la operación, aun si retiras el acceso o eliminas tu cuenta')
  })

  it('shows nothing about files when no business keeps one', async () => {
    open([])
    const section = await screen.findByTestId('partner-access')
    expect(await within(section).findByText('No has compartido tus datos con ninguna plataforma.')).toBeInTheDocument()
    expect(within(section).queryByTestId('aml-files')).not.toBeInTheDocument()
  })
})

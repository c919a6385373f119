import { screen, waitFor } from '@testing-library/react'
import fixture from '@/features/credentials/lib/testdata/credential.json'
import { present } from '@/features/credentials/lib/sd-jwt'
import { mockApi, screenCalls } from '@/testing/mock-api'
import { renderRouteWithUser } from '@/testing/render-route'

// The credential verifier at /verify, with a credential issued by the Go issuer
// (credential/webfixture_test.go) and its published keys and status lists.
function serve(statusList: string) {
  return mockApi({
    'GET /.well-known/jwt-vc-issuer': { json: { issuer: fixture.issuer, jwks: fixture.jwks } },
    'GET /api/credentials/status/1': { text: statusList },
  })
}

async function verifyPasted(text: string) {
  const { user } = renderRouteWithUser('/verify')
  const box = await screen.findByLabelText('Credencial presentada')
  await user.click(box)
  await user.paste(text)
  await user.click(screen.getByRole('button', { name: 'Verificar' }))
}

describe('/verify', () => {
  it('verifies a presentation in the browser and shows only what the holder disclosed', async () => {
    const { calls } = serve(fixture.statusListValid)
    await verifyPasted(present(fixture.credential, ['name']))
    expect(await screen.findByText('Credencial válida')).toBeInTheDocument()
    expect(screen.getByTestId('claim-name')).toHaveTextContent('Ana López')
    expect(screen.getByTestId('claim-profile_id')).toHaveTextContent('PS-1234-5678-90')
    expect(screen.getByTestId('claim-verification_level')).toHaveTextContent('Nivel 3')
    expect(screen.queryByTestId('claim-origin')).not.toBeInTheDocument()
    expect(screen.queryByTestId('claim-scores')).not.toBeInTheDocument()
    expect(screen.getByTestId('status-list-age')).toHaveTextContent(/Lista de revocación firmada el/)
    // Nothing about the person was asked: only the keys and the list.
    expect(screenCalls(calls).map((c) => c.path).sort()).toEqual(['/.well-known/jwt-vc-issuer', '/api/credentials/status/1'])
  })

  it('says Credencial revocada when the status list says so', async () => {
    serve(fixture.statusListRevoked)
    await verifyPasted(fixture.credential)
    expect(await screen.findByText('Credencial revocada')).toBeInTheDocument()
  })

  it('explains what is wrong with an altered or foreign credential', async () => {
    serve(fixture.statusListValid)
    const [jwt] = fixture.credential.split('~')
    const fake = btoa(JSON.stringify(['c2FsdA', 'name', 'Otra Persona'])).replace(/=+$/, '')
    await verifyPasted(`${jwt}~${fake}~`)
    const verdict = await screen.findByTestId('credential-verdict')
    expect(verdict).toHaveTextContent('Credencial no válida')
    expect(verdict).toHaveTextContent('Un dato divulgado no corresponde a la credencial')
  })

  it('accepts a verifier link pasted whole', async () => {
    serve(fixture.statusListValid)
    await verifyPasted(`https://perfilseguro.example/verify#vp=${present(fixture.credential, ['origin'])}`)
    expect(await screen.findByText('Credencial válida')).toBeInTheDocument()
    await waitFor(() => expect(screen.getByTestId('claim-origin')).toHaveTextContent('Broker'))
    expect(screen.queryByTestId('claim-name')).not.toBeInTheDocument()
  })
})

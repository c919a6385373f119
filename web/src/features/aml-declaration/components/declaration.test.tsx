import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AppProvider } from '@/app/provider'
import { createQueryClient } from '@/lib/query-client'
import { mockApi, type RecordedCall } from '@/testing/mock-api'
import { rfcShapeMessage, type AmlDeclarationState } from '../api/aml-declaration'
import { DeclarationForm } from './declaration-form'
import { AmlDeclarationSection } from './declaration-section'

vi.setConfig({ testTimeout: 20_000 })

// Issue 53 item 2: the declaration's form (RFC, beneficiary, PEP) and Mi Perfil's section.

afterEach(() => vi.restoreAllMocks())

const noDeclaration: Pick<AmlDeclarationState, 'current' | 'prefill'> = {
  current: null,
  prefill: { address: 'Calle Roble 12, Col. Centro, Puebla', nationality: 'MEX', nationalityFromId: true },
}

function renderForm(onReviewed = vi.fn()) {
  render(
    <AppProvider client={createQueryClient()}>
      <DeclarationForm userId="7" state={noDeclaration} onReviewed={onReviewed} />
    </AppProvider>,
  )
  return onReviewed
}

const reviewPath = '/api/users/7/aml-declaration/text'
const reviews = (calls: RecordedCall[]) => calls.filter((c) => c.path === reviewPath)

async function fillBasics(user: ReturnType<typeof userEvent.setup>, rfc: string) {
  await user.type(screen.getByLabelText('¿A qué te dedicas? (ocupación o actividad económica)'), 'Contadora')
  await user.type(screen.getByLabelText('Tu RFC'), rfc)
}

describe('the declaration form', () => {
  it('starts from the ID: the address pre-filled and editable, the nationality shown and fixed', () => {
    renderForm()
    expect(screen.getByLabelText('Tu domicilio')).toHaveValue('Calle Roble 12, Col. Centro, Puebla')
    expect(screen.getByTestId('aml-nationality-fixed')).toHaveTextContent('Mexicana (de tu identificación)')
    expect(screen.queryByLabelText('Nacionalidad')).not.toBeInTheDocument()
  })

  it('says in Spanish what is wrong with an RFC, and lets the person confirm one whose check digit does not compute', async () => {
    const user = userEvent.setup()
    const { calls } = mockApi({
      [`POST ${reviewPath}`]: (body) =>
        (body as { confirmRfc?: boolean }).confirmRfc
          ? { json: { text: 'Yo, Ana López, declaro…', textSha256: 'a'.repeat(64) } }
          : {
              status: 400,
              json: {
                message: 'El dígito verificador del RFC no es correcto; revísalo en tu constancia de situación fiscal. Si estás seguro de que es el tuyo, confírmalo.',
                errors: { rfc: 'El dígito verificador del RFC no es correcto; revísalo en tu constancia de situación fiscal. Si estás seguro de que es el tuyo, confírmalo.' },
              },
            },
    })
    const onReviewed = renderForm()
    await fillBasics(user, 'ABC')
    await user.click(screen.getByRole('button', { name: 'Revisar mi declaración' }))
    expect(screen.getByText(rfcShapeMessage)).toBeInTheDocument()
    expect(reviews(calls)).toHaveLength(0)

    await user.clear(screen.getByLabelText('Tu RFC'))
    await user.type(screen.getByLabelText('Tu RFC'), 'gode561231gr9')
    await user.click(screen.getByRole('button', { name: 'Revisar mi declaración' }))
    const confirm = await screen.findByRole('checkbox', { name: /este es mi RFC/ })
    expect(onReviewed).not.toHaveBeenCalled()
    await user.click(confirm)
    await user.click(screen.getByRole('button', { name: 'Revisar mi declaración' }))
    await vi.waitFor(() => expect(onReviewed).toHaveBeenCalled())
    const sent = reviews(calls).at(-1)?.body as { answers: { rfc: string; nationality: string }; confirmRfc: boolean }
    expect(sent.confirmRfc).toBe(true)
    expect(sent.answers.rfc).toBe('GODE561231GR9')
    expect(sent.answers.nationality).toBe('MEX')
  })

  it('asks for the beneficiary when the person acts for someone else, every field required', async () => {
    const user = userEvent.setup()
    const { calls } = mockApi({ [`POST ${reviewPath}`]: { json: { text: 'texto', textSha256: 'b'.repeat(64) } } })
    const onReviewed = renderForm()
    expect(screen.queryByTestId('aml-beneficiary')).not.toBeInTheDocument()
    await fillBasics(user, 'GODE561231GR8')
    await user.click(screen.getByRole('radio', { name: 'Actúo por cuenta de otra persona' }))
    const box = screen.getByTestId('aml-beneficiary')
    for (const label of ['Nombre completo', 'Fecha de nacimiento', 'CURP o RFC', '¿Qué relación tienes con esa persona?']) {
      expect(within(box).getByLabelText(label)).toBeRequired()
    }
    await user.click(screen.getByRole('button', { name: 'Revisar mi declaración' }))
    expect(screen.getByText('Escribe el nombre completo de la persona por quien actúas.')).toBeInTheDocument()
    expect(screen.getByText('Escribe la fecha de nacimiento de esa persona (AAAA-MM-DD).')).toBeInTheDocument()
    expect(screen.getByText('Escribe la CURP (18 caracteres) o el RFC de esa persona.')).toBeInTheDocument()
    expect(screen.getByText('Escribe tu relación con esa persona.')).toBeInTheDocument()
    expect(reviews(calls)).toHaveLength(0)

    await user.type(within(box).getByLabelText('Nombre completo'), 'Luis Pérez')
    await user.type(within(box).getByLabelText('Fecha de nacimiento'), '1970-02-10')
    await user.type(within(box).getByLabelText('CURP o RFC'), 'pexl700210hdfrrs09')
    await user.type(within(box).getByLabelText('¿Qué relación tienes con esa persona?'), 'socio')
    await user.click(screen.getByRole('button', { name: 'Revisar mi declaración' }))
    await vi.waitFor(() => expect(onReviewed).toHaveBeenCalled())
    const sent = reviews(calls)[0]?.body as { answers: { forBeneficiary: boolean; beneficiary: Record<string, string> } }
    expect(sent.answers.forBeneficiary).toBe(true)
    expect(sent.answers.beneficiary).toEqual({ name: 'Luis Pérez', birthDate: '1970-02-10', curpOrRfc: 'PEXL700210HDFRRS09', relationship: 'socio' })
  })

  it('asks for the public position when the person or a relative holds one', async () => {
    const user = userEvent.setup()
    const { calls } = mockApi({})
    renderForm()
    expect(screen.queryByLabelText('¿Qué cargo, de quién y dónde?')).not.toBeInTheDocument()
    await fillBasics(user, 'GODE561231GR8')
    await user.click(screen.getByRole('radio', { name: 'Sí' }))
    expect(screen.getByLabelText('¿Qué cargo, de quién y dónde?')).toBeRequired()
    await user.click(screen.getByRole('button', { name: 'Revisar mi declaración' }))
    expect(screen.getByText('Escribe el cargo público (tuyo o de tu familiar) y dónde lo ocupa u ocupó.')).toBeInTheDocument()
    expect(reviews(calls)).toHaveLength(0)
  })
})

const v1 = {
  version: 1,
  signedAt: '2026-11-20T18:00:00Z',
  method: 'codigo' as const,
  textSha256: 'c'.repeat(64),
  answers: { occupation: 'Contadora', address: 'Calle Roble 12', rfc: 'GODE561231GR8', nationality: 'MEX', forBeneficiary: false, pep: false },
}
const v2 = { ...v1, version: 2, signedAt: '2026-11-27T18:00:00Z', method: 'passkey' as const, answers: { ...v1.answers, occupation: 'Arquitecta' } }

describe('Mi Perfil › Declaración de conocimiento del cliente', () => {
  it('shows the current version, the history and who received it, and «Corregir» opens the form pre-filled', async () => {
    const user = userEvent.setup()
    mockApi({
      'GET /api/users/7/aml-declaration': {
        json: {
          current: { ...v2, text: 'Yo, Ana López…' },
          history: [v2, v1],
          shares: [
            { version: 2, partnerName: 'CasaLista', sharedAt: '2026-11-27T18:00:00Z', notifiedAt: '2026-11-27T18:00:00Z' },
            { version: 1, partnerName: 'CasaLista', sharedAt: '2026-11-20T18:00:00Z', notifiedAt: null },
          ],
          prefill: { address: 'Calle Roble 12', nationality: 'MEX', nationalityFromId: true },
        },
      },
    })
    render(
      <AppProvider client={createQueryClient()}>
        <AmlDeclarationSection userId="7" />
      </AppProvider>,
    )
    expect(await screen.findByTestId('aml-current')).toHaveTextContent(/^Versión 2, firmada el .+ con llave de acceso\.$/)
    expect(screen.getByText('Arquitecta')).toBeInTheDocument()
    expect(screen.getAllByTestId('aml-version').map((li) => li.textContent)).toEqual([
      expect.stringMatching(/^Versión 2: .+, llave de acceso \(vigente\)$/),
      expect.stringMatching(/^Versión 1: .+, código de verificación$/),
    ])
    expect(screen.getByText(/^CasaLista: versión 1,/)).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Corregir' }))
    expect(screen.getByLabelText('¿A qué te dedicas? (ocupación o actividad económica)')).toHaveValue('Arquitecta')
    expect(screen.getByLabelText('Tu RFC')).toHaveValue('GODE561231GR8')
    await user.click(screen.getByRole('button', { name: 'Cancelar' }))
    expect(screen.getByTestId('aml-current')).toBeInTheDocument()
  })

  it('says when nothing was signed yet', async () => {
    mockApi({
      'GET /api/users/7/aml-declaration': { json: { current: null, history: [], shares: [], prefill: { address: '', nationality: '', nationalityFromId: false } } },
    })
    render(
      <AppProvider client={createQueryClient()}>
        <AmlDeclarationSection userId="7" />
      </AppProvider>,
    )
    expect(await screen.findByText(/Aún no la has firmado/)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Corregir' })).not.toBeInTheDocument()
  })
})

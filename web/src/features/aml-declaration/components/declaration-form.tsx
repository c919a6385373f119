import { useState, type FormEvent } from 'react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Field, Input, Select } from '@/components/ui/input'
import { errorBody, serverMessage } from '@/lib/api-client'
import {
  nationalities,
  nationalityLabel,
  reviewAmlDeclaration,
  rfcShape,
  rfcShapeMessage,
  type AmlAnswers,
  type AmlDeclarationState,
  type AmlDraft,
  type AmlText,
} from '../api/aml-declaration'

// The declaration's questions, in plain Spanish. The address starts from the ID's; the nationality
// is the ID's when it gives one (shown, not editable). The server checks everything again.

type Errors = Partial<Record<string, string>>

const empty: AmlAnswers = { occupation: '', address: '', rfc: '', nationality: '', forBeneficiary: false, pep: false }

/** The answers the form starts from: the current version's, else the ID's address and nationality. */
export function initialAnswers(state: Pick<AmlDeclarationState, 'current' | 'prefill'>): AmlAnswers {
  const base = state.current ? { ...empty, ...state.current.answers } : { ...empty, address: state.prefill.address }
  if (state.prefill.nationalityFromId) base.nationality = state.prefill.nationality
  return base
}

/** Checks the answers as the server does (required fields, the RFC's shape). */
export function checkAnswers(a: AmlAnswers): Errors {
  const errors: Errors = {}
  if (!a.occupation.trim()) errors.occupation = 'Escribe tu ocupación o actividad económica.'
  if (!a.address.trim()) errors.address = 'Escribe tu domicilio.'
  const rfc = a.rfc.trim().toUpperCase().replace(/[\s-]/g, '')
  if (!rfc) errors.rfc = 'Escribe tu RFC.'
  else if (!rfcShape.test(rfc)) errors.rfc = rfcShapeMessage
  if (!a.nationality) errors.nationality = 'Elige tu nacionalidad.'
  if (a.forBeneficiary) {
    const b = a.beneficiary
    if (!b?.name.trim()) errors['beneficiary.name'] = 'Escribe el nombre completo de la persona por quien actúas.'
    if (!b?.birthDate) errors['beneficiary.birthDate'] = 'Escribe la fecha de nacimiento de esa persona (AAAA-MM-DD).'
    if (!b?.curpOrRfc.trim()) errors['beneficiary.curpOrRfc'] = 'Escribe la CURP (18 caracteres) o el RFC de esa persona.'
    if (!b?.relationship.trim()) errors['beneficiary.relationship'] = 'Escribe tu relación con esa persona.'
  }
  if (a.pep && !a.pepPosition?.trim()) errors.pepPosition = 'Escribe el cargo público (tuyo o de tu familiar) y dónde lo ocupa u ocupó.'
  return errors
}

/** The form; onReviewed gets the draft and the exact text the server will have the person sign. */
export function DeclarationForm({
  userId,
  state,
  onReviewed,
  onCancel,
}: {
  userId: string
  state: Pick<AmlDeclarationState, 'current' | 'prefill'>
  onReviewed: (draft: AmlDraft, text: AmlText) => void
  onCancel?: () => void
}) {
  const [answers, setAnswers] = useState<AmlAnswers>(() => initialAnswers(state))
  const [errors, setErrors] = useState<Errors>({})
  const [checkDigit, setCheckDigit] = useState(false) // the server said only the check digit fails
  const [confirmRfc, setConfirmRfc] = useState(false)
  const [problem, setProblem] = useState('')
  const [busy, setBusy] = useState(false)
  const set = (patch: Partial<AmlAnswers>) => setAnswers((a) => ({ ...a, ...patch }))
  const beneficiary = answers.beneficiary ?? { name: '', birthDate: '', curpOrRfc: '', relationship: '' }
  const setBeneficiary = (patch: Partial<typeof beneficiary>) => set({ beneficiary: { ...beneficiary, ...patch } })
  const fixedNationality = state.prefill.nationalityFromId

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setProblem('')
    const found = checkAnswers(answers)
    setErrors(found)
    if (Object.keys(found).length > 0) return
    const draft: AmlDraft = {
      answers: {
        ...answers,
        beneficiary: answers.forBeneficiary ? beneficiary : undefined,
        pepPosition: answers.pep ? answers.pepPosition : undefined,
      },
      confirmRfc: checkDigit && confirmRfc,
    }
    setBusy(true)
    try {
      onReviewed(draft, await reviewAmlDeclaration(userId, draft))
    } catch (err) {
      const fields = errorBody(err)?.errors as Errors | undefined
      if (fields) {
        setErrors(fields)
        setCheckDigit(!!fields.rfc?.includes('dígito verificador'))
      }
      setProblem(serverMessage(err, 'No pudimos preparar tu declaración. Intenta de nuevo.'))
    } finally {
      setBusy(false)
    }
  }

  const id = (f: string) => `aml-${f.replace('.', '-')}`
  return (
    <form className="space-y-4" onSubmit={(e) => void submit(e)} noValidate aria-label="Declaración de conocimiento del cliente">
      <p className="text-sm text-base-content/80">
        La ley contra el lavado de dinero pide a los negocios inmobiliarios conocer a sus clientes. Responde con la verdad; después
        revisas el texto y lo firmas.
      </p>
      <Field label="¿A qué te dedicas? (ocupación o actividad económica)" htmlFor={id('occupation')} error={errors.occupation}>
        <Input id={id('occupation')} value={answers.occupation} invalid={!!errors.occupation} maxLength={200}
          onChange={(e) => set({ occupation: e.target.value })} />
      </Field>
      <Field label="Tu domicilio" htmlFor={id('address')} error={errors.address}
        hint={state.prefill.address ? 'Lo tomamos de tu identificación; corrígelo si ya no vives ahí.' : undefined}>
        <Input id={id('address')} value={answers.address} invalid={!!errors.address} maxLength={300} autoComplete="street-address"
          onChange={(e) => set({ address: e.target.value })} />
      </Field>
      <Field label="Tu RFC" htmlFor={id('rfc')} error={errors.rfc} hint="Como aparece en tu constancia de situación fiscal (13 caracteres).">
        <Input id={id('rfc')} value={answers.rfc} invalid={!!errors.rfc} maxLength={15} autoCapitalize="characters"
          onChange={(e) => {
            set({ rfc: e.target.value.toUpperCase() })
            setCheckDigit(false)
            setConfirmRfc(false)
          }} />
      </Field>
      {checkDigit && (
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" className="checkbox checkbox-sm mt-0.5" checked={confirmRfc} onChange={(e) => setConfirmRfc(e.target.checked)} />
          <span>Revisé mi constancia: este es mi RFC aunque su último carácter no coincida con el cálculo.</span>
        </label>
      )}
      {fixedNationality ? (
        <div className="space-y-1.5">
          <p className="text-sm font-medium">Nacionalidad</p>
          <p data-testid="aml-nationality-fixed">{nationalityLabel(answers.nationality)} <span className="text-sm text-base-content/70">(de tu identificación)</span></p>
        </div>
      ) : (
        <Field label="Nacionalidad" htmlFor={id('nationality')} error={errors.nationality}>
          <Select id={id('nationality')} className="w-full" value={answers.nationality} options={[{ value: '', label: 'Elige…' }, ...nationalities]}
            onChange={(e) => set({ nationality: e.target.value })} />
        </Field>
      )}

      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">¿Para quién es esta operación?</legend>
        <label className="flex items-center gap-2">
          <input type="radio" className="radio radio-sm" name="aml-for" checked={!answers.forBeneficiary} onChange={() => set({ forBeneficiary: false })} />
          Actúo por mi cuenta
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" className="radio radio-sm" name="aml-for" checked={answers.forBeneficiary} onChange={() => set({ forBeneficiary: true })} />
          Actúo por cuenta de otra persona
        </label>
      </fieldset>
      {answers.forBeneficiary && (
        <div className="space-y-3 rounded-box border border-base-300 p-3" data-testid="aml-beneficiary">
          <p className="text-sm">La persona por quien actúas (el «beneficiario controlador»): quien es dueña de los recursos o decide sobre ellos.</p>
          <Field label="Nombre completo" htmlFor={id('beneficiary.name')} error={errors['beneficiary.name']}>
            <Input id={id('beneficiary.name')} required value={beneficiary.name} invalid={!!errors['beneficiary.name']}
              onChange={(e) => setBeneficiary({ name: e.target.value })} />
          </Field>
          <Field label="Fecha de nacimiento" htmlFor={id('beneficiary.birthDate')} error={errors['beneficiary.birthDate']}>
            <Input id={id('beneficiary.birthDate')} type="date" required value={beneficiary.birthDate} invalid={!!errors['beneficiary.birthDate']}
              onChange={(e) => setBeneficiary({ birthDate: e.target.value })} />
          </Field>
          <Field label="CURP o RFC" htmlFor={id('beneficiary.curpOrRfc')} error={errors['beneficiary.curpOrRfc']}>
            <Input id={id('beneficiary.curpOrRfc')} required value={beneficiary.curpOrRfc} invalid={!!errors['beneficiary.curpOrRfc']}
              onChange={(e) => setBeneficiary({ curpOrRfc: e.target.value.toUpperCase() })} />
          </Field>
          <Field label="¿Qué relación tienes con esa persona?" htmlFor={id('beneficiary.relationship')} error={errors['beneficiary.relationship']}
            hint="Por ejemplo: cónyuge, socio, empleador, representante legal.">
            <Input id={id('beneficiary.relationship')} required value={beneficiary.relationship} invalid={!!errors['beneficiary.relationship']}
              onChange={(e) => setBeneficiary({ relationship: e.target.value })} />
          </Field>
        </div>
      )}

      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">
          ¿Tú o un familiar cercano (cónyuge, padres, hijos, hermanos) ocupan u ocuparon un cargo público importante? (por ejemplo: funcionario
          de gobierno, juez, legislador, dirigente de partido, militar de alto rango)
        </legend>
        <label className="flex items-center gap-2">
          <input type="radio" className="radio radio-sm" name="aml-pep" checked={!answers.pep} onChange={() => set({ pep: false })} />
          No
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" className="radio radio-sm" name="aml-pep" checked={answers.pep} onChange={() => set({ pep: true })} />
          Sí
        </label>
      </fieldset>
      {answers.pep && (
        <Field label="¿Qué cargo, de quién y dónde?" htmlFor={id('pepPosition')} error={errors.pepPosition}>
          <Input id={id('pepPosition')} required value={answers.pepPosition ?? ''} invalid={!!errors.pepPosition} maxLength={200}
            onChange={(e) => set({ pepPosition: e.target.value })} />
        </Field>
      )}

      {problem && <Alert variant="destructive">{problem}</Alert>}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={busy} pending={busy}>Revisar mi declaración</Button>
        {onCancel && <Button variant="ghost" onClick={onCancel} disabled={busy}>Cancelar</Button>}
      </div>
    </form>
  )
}

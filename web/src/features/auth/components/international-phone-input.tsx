import PhoneInput from 'react-phone-number-input'
import type { Country, Flags } from 'react-phone-number-input'
import es from 'react-phone-number-input/locale/es'
import { AR, BO, CA, CL, CO, CR, CU, DO, EC, ES, GT, HN, MX, NI, PA, PE, PR, PY, SV, US, UY, VE } from 'country-flag-icons/react/3x2'

// The sign-in phone with its country selector, on libphonenumber-js. This module is the heavy
// part (~40 kB gzip): SignInPhoneInput loads it after the screen paints (issue 38).

/** Countries the phone selector offers (SPEC §5). */
export const PHONE_COUNTRIES: Country[] = [
  'MX', 'US', 'CA', 'ES', 'AR', 'CO', 'PE', 'CL', 'VE', 'EC', 'UY',
  'PY', 'BO', 'CR', 'PA', 'GT', 'HN', 'SV', 'NI', 'DO', 'CU', 'PR',
]

// Only the offered countries' flags: the selector shows no other (the whole set is ~60 kB gzip).
const flags: Flags = { MX, US, CA, ES, AR, CO, PE, CL, VE, EC, UY, PY, BO, CR, PA, GT, HN, SV, NI, DO, CU, PR }

/** Props of InternationalPhoneInput. */
export type InternationalPhoneInputProps = {
  id: string
  /** E.164 ('+525512345678'), or '' when no number is typed. */
  value: string
  onChange: (value: string) => void
  onBlur: () => void
}

/** The phone input of the sign-in form: a country selector (Mexico first) and the number, +52 fixed. */
export function InternationalPhoneInput({ id, value, onChange, onBlur }: InternationalPhoneInputProps) {
  return (
    <PhoneInput
      id={id}
      international
      countryCallingCodeEditable={false}
      defaultCountry="MX"
      countries={PHONE_COUNTRIES}
      flags={flags}
      labels={es}
      value={value || undefined}
      onChange={(v) => onChange(v ?? '')}
      onBlur={onBlur}
      className="input w-full"
      numberInputProps={{ className: 'grow bg-transparent outline-none', 'aria-label': 'Teléfono WhatsApp' }}
      // A form control needs an id or a name (Chrome reports one without as an issue).
      countrySelectProps={{ name: `${id}-pais` }}
    />
  )
}

import { useEffect, useRef, useState, type ChangeEvent } from 'react'
// react-phone-number-input/style.css is part of src/index.css: /login paints before this module loads.
import { lazyModule, whenIdle, type LazyModule } from '@/lib/lazy-module'
import type { InternationalPhoneInputProps } from './international-phone-input'

// The sign-in screen paints without the phone-number library (issue 38): until it has loaded,
// a stand-in with the same markup and look (Mexico's flag, '+52') takes the typing. The real input
// replaces it once loaded, but never while the stand-in has the focus (a swap in mid-typing
// loses or repeats keys): then on its blur, with the number typed.

/** Props of SignInPhoneInput: a react-hook-form field's value and handlers. */
export type SignInPhoneInputProps = InternationalPhoneInputProps

type Implementation = typeof import('./international-phone-input')

/**
 * createSignInPhoneInput builds the input on a lazy module holding InternationalPhoneInput; the
 * module loads when the browser is idle after the first paint, or at once when the stand-in is used.
 */
export function createSignInPhoneInput(implementation: LazyModule<Implementation>) {
  return function SignInPhoneInput(props: SignInPhoneInputProps) {
    const [loaded, setLoaded] = useState(implementation.current)
    const standIn = useRef<HTMLInputElement>(null)
    const swap = useRef<() => void>(() => {})
    const waiting = useRef<Implementation>(undefined) // loaded while the stand-in had the focus

    useEffect(() => {
      if (loaded) return
      let live = true
      swap.current = () =>
        void implementation.load().then(
          (m) => {
            if (!live) return
            if (document.activeElement === standIn.current) waiting.current = m
            else setLoaded(m)
          },
          () => {}, // offline: the stand-in keeps working, and the next use tries again
        )
      const cancel = whenIdle(() => swap.current())
      return () => {
        live = false
        cancel()
      }
    }, [loaded])

    if (loaded) return <loaded.InternationalPhoneInput {...props} />
    const onBlur = () => {
      props.onBlur()
      if (waiting.current) setLoaded(waiting.current)
    }
    return <PhoneInputStandIn {...props} onBlur={onBlur} inputRef={standIn} onUse={() => swap.current()} />
  }
}

/** The sign-in phone input; see createSignInPhoneInput. */
export const SignInPhoneInput = createSignInPhoneInput(lazyModule(() => import('./international-phone-input')))

/**
 * What shows until the library has loaded: the markup react-phone-number-input renders for Mexico
 * with no number, so nothing moves when it is replaced. Typing works as there, unformatted: the
 * +52 stays, and the value is '+52' and the digits typed ('' while none is).
 */
function PhoneInputStandIn({
  id,
  value,
  onChange,
  onBlur,
  inputRef,
  onUse,
}: SignInPhoneInputProps & { inputRef: React.Ref<HTMLInputElement>; onUse: () => void }) {
  // The input shows its own state, updated in the event: a field value that comes back later
  // would let fast typing land on a stale value (keys lost or repeated).
  const [digits, setDigits] = useState(() => value.replace(/^\+52/, '').replace(/\D/g, ''))
  const change = (e: ChangeEvent<HTMLInputElement>) => {
    const typed = e.target.value
    // The country code cannot be edited (keys typed before it count after it); a number pasted
    // without it is a Mexican one.
    const national = typed.includes('+52') ? typed.replace('+52', '') : typed.startsWith('+') ? null : typed
    if (national === null) return
    const next = national.replace(/\D/g, '')
    setDigits(next)
    onChange(next ? `+52${next}` : '')
  }
  return (
    <div className="input w-full PhoneInput">
      <div className="PhoneInputCountry">
        <select name={`${id}-pais`} aria-label="Número de teléfono del país" className="PhoneInputCountrySelect" value="MX" onChange={onUse} onFocus={onUse} onPointerDown={onUse}>
          <option value="MX">México</option>
        </select>
        <div aria-hidden="true" className="PhoneInputCountryIcon PhoneInputCountryIcon--border">
          <MexicoFlag />
        </div>
        <div className="PhoneInputCountrySelectArrow" />
      </div>
      <input
        ref={inputRef}
        id={id}
        type="tel"
        autoComplete="tel"
        className="PhoneInputInput grow bg-transparent outline-none"
        aria-label="Teléfono WhatsApp"
        value={digits ? `+52 ${digits}` : '+52'}
        onChange={change}
        onBlur={onBlur}
        onFocus={(e) => {
          // A focus by script or keyboard puts the caret before '+52'; typing goes after it.
          const input = e.currentTarget
          if ((input.selectionStart ?? 0) < 3) input.setSelectionRange(input.value.length, input.value.length)
          onUse()
        }}
        onPointerDown={onUse}
      />
    </div>
  )
}

/**
 * Mexico's flag as country-flag-icons draws it (react/3x2/MX), which is what the library shows.
 * Copied rather than imported: the library's chunk imports the same flag module, and a module
 * shared by both would come here whole, with every other country's flag.
 */
function MexicoFlag() {
  return (
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 513 342">
      <title>México</title>
      <path fill="#dc2339" d="M342 0H0v341.3h513V0z" />
      <path fill="#11865d" d="M0 0h171v342H0z" />
      <path fill="#FFF" d="M171 0h171v342H171z" />
      <path
        fill="#8C9157"
        d="M195.8 171.2c0 21.6 11.5 41.7 30.3 52.5 5.8 3.4 13.2 1.4 16.6-4.4 3.4-5.8 1.4-13.2-4.4-16.6-11.3-6.5-18.2-18.5-18.2-31.5 0-6.7-5.4-12.1-12.1-12.1-6.7 0-12.2 5.4-12.2 12.1zm93.4 51.1c17.5-11.1 28-30.4 28-51.1 0-6.7-5.4-12.1-12.1-12.1s-12.1 5.4-12.1 12.1c0 12.4-6.3 24-16.8 30.7-5.7 3.5-7.5 10.9-4.1 16.7s10.9 7.5 16.7 4.1c0-.2.2-.3.4-.4z"
      />
      <ellipse fill="#C59262" cx="256.5" cy="159.1" rx="24.3" ry="36.4" />
    </svg>
  )
}

import { useState } from 'react'
import { act, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { lazyModule } from '@/lib/lazy-module'
import { createSignInPhoneInput } from './sign-in-phone-input'

// The stand-in shown while the phone-number library loads (issue 38): same look, takes typing,
// and is replaced by the real input (never while it has the focus).

function deferredImplementation() {
  let release: () => void = () => {}
  const gate = new Promise<void>((resolve) => (release = resolve))
  const implementation = lazyModule(async () => {
    await gate
    return import('./international-phone-input')
  })
  return { implementation, release }
}

function Form({ Input, onValue }: { Input: ReturnType<typeof createSignInPhoneInput>; onValue: (v: string) => void }) {
  const [value, setValue] = useState('')
  return (
    <Input
      id="phoneNumber"
      value={value}
      onChange={(v) => {
        setValue(v)
        onValue(v)
      }}
      onBlur={() => {}}
    />
  )
}

describe('SignInPhoneInput', () => {
  it('shows +52 and Mexico before the library loads, takes the typing, and is replaced on blur, number kept', async () => {
    const { implementation, release } = deferredImplementation()
    const Input = createSignInPhoneInput(implementation)
    const onValue = vi.fn()
    const user = userEvent.setup()
    const { container } = render(<Form Input={Input} onValue={onValue} />)

    const standIn = screen.getByRole('textbox', { name: 'Teléfono WhatsApp' })
    expect(standIn).toHaveValue('+52')
    for (const control of container.querySelectorAll('input, select')) expect(control.id || control.getAttribute('name')).toBeTruthy()
    expect(container.querySelector('.PhoneInputCountryIcon title')).toHaveTextContent('México')
    await user.type(standIn, '55ab12')
    expect(onValue).toHaveBeenLastCalledWith('+525512')
    expect(standIn).toHaveValue('+52 5512')
    await user.type(standIn, '{Backspace}{Backspace}{Backspace}{Backspace}{Backspace}{Backspace}{Backspace}')
    expect(standIn).toHaveValue('+52') // the code cannot be erased
    expect(onValue).toHaveBeenLastCalledWith('')
    await user.type(standIn, '5', { initialSelectionStart: 0, initialSelectionEnd: 0 }) // caret before +52
    expect(standIn).toHaveValue('+52 5')
    await user.type(standIn, '512')

    // Loaded while the stand-in has the focus: no swap in mid-typing.
    await act(async () => release())
    await user.type(standIn, '34')
    expect(screen.getByRole('textbox', { name: 'Teléfono WhatsApp' })).toBe(standIn)
    expect(onValue).toHaveBeenLastCalledWith('+52551234')

    await user.tab()
    const real = screen.getByRole('textbox', { name: 'Teléfono WhatsApp' })
    expect(real).not.toBe(standIn)
    expect(real).toHaveValue('+52 55 1234')
    await user.type(real, '5678')
    expect(onValue).toHaveBeenLastCalledWith('+525512345678')
    expect(real).toHaveValue('+52 55 1234 5678')
  })

  it('is replaced at once when the library loads while the stand-in is not focused', async () => {
    const { implementation, release } = deferredImplementation()
    const Input = createSignInPhoneInput(implementation)
    const user = userEvent.setup()
    render(<Form Input={Input} onValue={() => {}} />)
    const standIn = screen.getByRole('textbox', { name: 'Teléfono WhatsApp' })
    await user.click(standIn) // the first use starts the load
    await user.tab()
    await act(async () => release())
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Teléfono WhatsApp' })).not.toBe(standIn))
  })

  it('renders the library input at once when it has loaded', async () => {
    const { implementation, release } = deferredImplementation()
    release()
    await implementation.load()
    const Input = createSignInPhoneInput(implementation)
    render(<Form Input={Input} onValue={() => {}} />)
    expect(screen.getByRole('combobox', { name: 'Número de teléfono del país' })).toHaveDisplayValue('México')
    expect(screen.getAllByRole('option')).toHaveLength(22)
    // Every control has a name or an id (Chrome's FormEmptyIdAndNameAttributesForInputError).
    for (const control of document.querySelectorAll('input, select')) expect(control.id || control.getAttribute('name')).toBeTruthy()
  })
})

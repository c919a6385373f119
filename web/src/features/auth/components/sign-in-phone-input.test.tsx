import { useState } from 'react'
import { act, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { lazyModule } from '@/lib/lazy-module'
import { createSignInPhoneInput } from './sign-in-phone-input'

// The stand-in shown while the phone-number library loads (issue 38): same look, takes typing,
// and hands the number and the focus to the real input.

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
  it('shows +52 and Mexico before the library loads, takes the typing, then hands over number and focus', async () => {
    const { implementation, release } = deferredImplementation()
    const Input = createSignInPhoneInput(implementation)
    const onValue = vi.fn()
    const user = userEvent.setup()
    const { container } = render(<Form Input={Input} onValue={onValue} />)

    const standIn = screen.getByRole('textbox', { name: 'Teléfono WhatsApp' })
    expect(standIn).toHaveValue('+52')
    expect(container.querySelector('.PhoneInputCountryIcon title')).toHaveTextContent('México')
    await user.type(standIn, '55ab12')
    expect(onValue).toHaveBeenLastCalledWith('+525512')
    await user.type(standIn, '{Backspace}{Backspace}{Backspace}{Backspace}{Backspace}{Backspace}{Backspace}')
    expect(standIn).toHaveValue('+52') // the code cannot be erased
    expect(onValue).toHaveBeenLastCalledWith('')
    await user.type(standIn, '5512')

    await act(async () => release())
    const real = await waitFor(() => {
      const el = screen.getByRole('textbox', { name: 'Teléfono WhatsApp' })
      expect(el).not.toBe(standIn)
      return el
    })
    expect(real).toHaveValue('+52 55 12')
    expect(real).toHaveFocus()
    await user.keyboard('345678')
    expect(onValue).toHaveBeenLastCalledWith('+525512345678')
    expect(real).toHaveValue('+52 55 1234 5678')
  })

  it('renders the library input at once when it has loaded', async () => {
    const { implementation, release } = deferredImplementation()
    release()
    await implementation.load()
    const Input = createSignInPhoneInput(implementation)
    render(<Form Input={Input} onValue={() => {}} />)
    expect(screen.getByRole('combobox', { name: 'Número de teléfono del país' })).toHaveDisplayValue('México')
    expect(screen.getAllByRole('option')).toHaveLength(22)
  })
})

import { Controller, type Control, type FieldPathByValue, type FieldValues } from 'react-hook-form'
import { Field, MxPhoneInput, type MxPhoneInputProps } from './input'

/** Props of MxPhoneField: the form's control and the phone's name in it, the row's label and hint, and MxPhoneInput's own. */
export type MxPhoneFieldProps<T extends FieldValues, TTransformed> = Omit<MxPhoneInputProps, 'field' | 'invalid'> & {
  control: Control<T, unknown, TTransformed>
  name: FieldPathByValue<T, string>
  label: string
  hint: string
}

/** The phone row of a react-hook-form form: MxPhoneInput in a labelled Field, red and with its message while the field has an error. */
export function MxPhoneField<T extends FieldValues, TTransformed = T>({ control, name, label, hint, ...input }: MxPhoneFieldProps<T, TTransformed>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState: { error } }) => (
        <Field label={label} htmlFor={input.id} error={error?.message} hint={hint}>
          <MxPhoneInput {...input} field={field} invalid={!!error} />
        </Field>
      )}
    />
  )
}

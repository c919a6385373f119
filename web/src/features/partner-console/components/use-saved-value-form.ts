import { useEffect } from 'react'
import { useForm, type DefaultValues, type UseFormReturn } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import type { z } from 'zod'

/** The values of a form of one field, name. */
type OneField<K extends string> = Record<K, string>

/**
 * The form of one setting the server keeps (the allowed origin, the webhook's URL): it starts
 * from saved and starts over whenever saved changes (after a save, or another person's).
 */
export function useSavedValueForm<K extends string>(
  schema: z.ZodType<OneField<K>, OneField<K>>,
  name: K,
  saved: string,
): UseFormReturn<OneField<K>> {
  const form = useForm<OneField<K>>({ resolver: zodResolver(schema), defaultValues: { [name]: saved } as DefaultValues<OneField<K>> })
  const { reset } = form
  useEffect(() => reset({ [name]: saved } as OneField<K>), [name, saved, reset])
  return form
}

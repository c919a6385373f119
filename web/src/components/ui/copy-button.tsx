import { useEffect, useRef, useState } from 'react'
import { Check, Copy } from 'lucide-react'
import { Button } from '@/components/ui/button'

/** How long "Copiado" stays after a copy. */
const COPY_FEEDBACK_MS = 2000

/**
 * Copies text to the clipboard and says so for two seconds; says why not when the browser refuses.
 * Shared by the partner console and the admin panel (keys and secrets shown once).
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  const timer = useRef<number>(undefined)
  useEffect(() => () => window.clearTimeout(timer.current), [])

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text)
      setState('copied')
    } catch {
      setState('failed')
    }
    window.clearTimeout(timer.current)
    timer.current = window.setTimeout(() => setState('idle'), COPY_FEEDBACK_MS)
  }

  return (
    <Button variant="outline" size="sm" onClick={copy} aria-label={state === 'copied' ? `${label} copiada` : `Copiar ${label}`}>
      {state === 'copied' ? <Check className="size-4 text-success" aria-hidden /> : <Copy className="size-4" aria-hidden />}
      <span aria-hidden>{state === 'copied' ? 'Copiado' : state === 'failed' ? 'Selecciónalo y cópialo' : 'Copiar'}</span>
    </Button>
  )
}

import { useEffect, useRef, useState } from 'react'
import { Check, Copy } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { useToast } from '@/components/ui/toast'

/** How long the check stays after a copy (SPEC §9 'Copy feedback: 2 s'). */
export const COPY_FEEDBACK_MS = 2000

/** copyText writes to the clipboard, falling back to a hidden textarea where the API is missing. */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text)
    return
  }
  const area = document.createElement('textarea')
  area.value = text
  area.setAttribute('readonly', '')
  area.style.position = 'fixed'
  area.style.opacity = '0'
  document.body.appendChild(area)
  area.select()
  const ok = document.execCommand('copy')
  area.remove()
  if (!ok) throw new Error('copy refused')
}

/** A copy button that shows a check for two seconds after copying. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false)
  const timer = useRef<number>(undefined)
  const { toast } = useToast()

  useEffect(() => () => window.clearTimeout(timer.current), [])

  const copy = async () => {
    try {
      await copyText(text)
    } catch {
      toast({ title: 'Error al copiar', description: 'No se pudo copiar al portapapeles', variant: 'destructive' })
      return
    }
    setCopied(true)
    window.clearTimeout(timer.current)
    timer.current = window.setTimeout(() => setCopied(false), COPY_FEEDBACK_MS)
  }

  return (
    <Button
      variant="ghost"
      size="sm"
      className="text-neutral-content hover:bg-white/10"
      onClick={copy}
      aria-label={copied ? `${label} copiado` : `Copiar ${label}`}
    >
      {copied ? <Check className="size-4 text-success" aria-hidden data-testid="copy-check" /> : <Copy className="size-4" aria-hidden />}
      <span aria-hidden>{copied ? 'Copiado' : 'Copiar'}</span>
    </Button>
  )
}

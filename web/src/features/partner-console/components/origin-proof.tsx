import { BadgeCheck } from 'lucide-react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { CopyButton } from '@/components/ui/copy-button'
import { useToast } from '@/components/ui/toast'
import { serverMessage } from '@/lib/api-client'
import { formatDateTimeMx } from '@/lib/format'
import { useConsoleSignedOut } from '../api/get-console-me'
import { useOriginProof, useVerifyOrigin } from '../api/origin'
import { can } from '../labels'
import type { ConsoleMe } from '../types'

/**
 * The proof that the platform controls its origin: the TXT record or the file that holds its
 * token, the last check's result, and (for who may change the origin) "Verificar ahora".
 */
export function OriginProofPanel({ me }: { me: ConsoleMe }) {
  const proof = useOriginProof()
  const verify = useVerifyOrigin()
  const { toast } = useToast()
  const signedOut = useConsoleSignedOut()
  if (proof.isPending) return null
  if (proof.isError) return <Alert variant="destructive">{serverMessage(proof.error, 'No pudimos leer la verificación del origen.')}</Alert>
  const p = proof.data

  if (p.local) {
    return (
      <p className="text-sm text-base-content/70" data-testid="origin-proof">
        Un origen local (localhost) no se puede verificar desde internet: úsalo con tus llaves de prueba.
      </p>
    )
  }
  return (
    <div className="space-y-3" data-testid="origin-proof">
      {p.proven ? (
        <Alert variant="success" title="Origen verificado">
          <BadgeCheck className="inline size-4" aria-hidden /> Comprobamos que controlas {p.origin} el {formatDateTimeMx(p.provenAt)} (hora de la Ciudad de México).
        </Alert>
      ) : (
        <Alert variant="warning" title="Origen sin verificar">
          <p>
            {p.liveNeedsProof
              ? 'Tus llaves de producción funcionarán cuando verifiquemos que controlas este origen. Las de prueba ya funcionan.'
              : 'Verifica que controlas este origen antes de usarlo en producción.'}
          </p>
          {p.checkedAt && p.checkError && (
            <p className="mt-2">
              Última revisión ({formatDateTimeMx(p.checkedAt)}, hora de la Ciudad de México): {p.checkError}
            </p>
          )}
        </Alert>
      )}
      {!p.proven && (
        <div className="space-y-2 text-sm">
          <p>Publica una de estas dos pruebas y pide la revisión:</p>
          <p className="font-medium">Un registro TXT en el DNS de {p.txtName}:</p>
          <div className="flex flex-col gap-2 rounded-box border border-base-300 bg-base-200 p-3 sm:flex-row sm:items-center">
            <code className="min-w-0 flex-1 break-all font-mono" data-testid="origin-txt">
              {p.txtValue}
            </code>
            <CopyButton text={p.txtValue} label="el valor del registro" />
          </div>
          <p className="font-medium">O un archivo de texto en {p.fileUrl} con esa misma línea.</p>
        </div>
      )}
      {can(me, 'origin') && !p.proven && (
        <Button
          variant="outline"
          size="sm"
          disabled={verify.isPending}
          pending={verify.isPending}
          onClick={() =>
            verify.mutate(undefined, {
              onSuccess: (res) => toast({ title: 'Revisión pedida', description: res.message }),
              onError: (err) => {
                if (signedOut(err)) return
                toast({ title: 'Error', description: serverMessage(err, 'No se pudo pedir la revisión.'), variant: 'destructive' })
              },
            })
          }
        >
          Verificar ahora
        </Button>
      )}
    </div>
  )
}

import { useId, useState } from 'react'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Field, Input, Select } from '@/components/ui/input'
import { useToast } from '@/components/ui/toast'
import { errorBody, serverMessage } from '@/lib/api-client'
import { formatDateTimeMx } from '@/lib/format'
import { useConsoleSignedOut, useSignedOutOn } from '../api/get-console-me'
import { previewList, useScreeningLists, useUploadList } from '../api/screening-lists'
import { can } from '../labels'
import type { ColumnMapping, ConsoleMe, ListPreview, Mode } from '../types'
import { ConsoleTable, TimeZoneNote } from './table-message'
import { TabHeading } from './tab-heading'

/** The fields of a mapping, in the order the form asks for them. */
const MAPPING_FIELDS: { key: keyof ColumnMapping; label: string }[] = [
  { key: 'nameColumn', label: 'Nombre completo' },
  { key: 'givenNamesColumn', label: 'Nombres (si van aparte)' },
  { key: 'surnamesColumn', label: 'Apellidos (si van aparte)' },
  { key: 'birthDateColumn', label: 'Fecha de nacimiento' },
  { key: 'aliasesColumn', label: 'Otros nombres o alias' },
  { key: 'identifierColumn', label: 'RFC o CURP' },
  { key: 'referenceColumn', label: 'Folio o referencia' },
]

/** The largest file the server takes. */
const MAX_BYTES = 10 * 1024 * 1024

/** "Listas": upload the business's own lists (CSV or XLSX) with their columns mapped, and every version of each list. */
export function ListsTab({ me, mode }: { me: ConsoleMe; mode: Mode }) {
  const allowed = can(me, 'compliance')
  const id = useId()
  const lists = useScreeningLists(mode, allowed)
  useSignedOutOn(lists.error)
  const upload = useUploadList(mode)
  const signedOut = useConsoleSignedOut()
  const { toast } = useToast()
  const [file, setFile] = useState<File | null>(null)
  const [preview, setPreview] = useState<ListPreview | null>(null)
  const [mapping, setMapping] = useState<ColumnMapping | null>(null)
  const [name, setName] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [reading, setReading] = useState(false)
  const where = mode === 'test' ? 'de prueba' : 'de producción'

  if (!allowed) {
    return (
      <div className="space-y-4">
        <TabHeading id="lists-title" title="Listas">
          Las listas de personas bloqueadas contra las que se consulta a tus clientes.
        </TabHeading>
        <Alert variant="info">Solo los roles Propietario y Cumplimiento administran las listas.</Alert>
      </div>
    )
  }

  const choose = async (f: File | undefined) => {
    setPreview(null)
    setMapping(null)
    setError(undefined)
    setFile(f ?? null)
    if (!f) return
    if (f.size > MAX_BYTES) {
      setError('El archivo es demasiado grande: el máximo es 10 MB.')
      return
    }
    setReading(true)
    try {
      const p = await previewList(mode, f)
      setPreview(p)
      setMapping(p.suggested)
      if (!name) setName(f.name.replace(/\.(csv|xlsx)$/i, ''))
    } catch (err) {
      if (signedOut(err)) return
      setError(serverMessage(err, 'No pudimos leer el archivo.'))
    } finally {
      setReading(false)
    }
  }

  const submit = (e: React.FormEvent) => {
    e.preventDefault()
    if (!file || !mapping) return
    if (!name.trim()) {
      setError('Escribe el nombre de la lista.')
      return
    }
    if (!mapping.nameColumn && !mapping.givenNamesColumn && !mapping.surnamesColumn) {
      setError('Indica qué columna tiene el nombre (o los nombres y apellidos).')
      return
    }
    upload.mutate(
      { file, name: name.trim(), mapping },
      {
        onSuccess: (res) => {
          toast({
            title: res.created ? `Lista importada: versión ${res.version}` : 'El archivo es igual a la última versión',
            description: res.created
              ? `${res.entries} registros. Volveremos a consultar los expedientes vigentes contra esta versión.`
              : 'No se agregó nada.',
          })
          setFile(null)
          setPreview(null)
          setMapping(null)
          setName('')
        },
        onError: (err) => {
          if (signedOut(err)) return
          const fields = (errorBody(err)?.errors ?? {}) as Record<string, string>
          setError(fields.name ?? serverMessage(err, 'No se importó la lista.'))
        },
      },
    )
  }

  const options = [{ value: '', label: '(ninguna)' }, ...(preview?.columns ?? []).filter(Boolean).map((c) => ({ value: c, label: c }))]
  const rows = lists.data?.data ?? []

  return (
    <div className="space-y-6">
      <TabHeading id="lists-title" title={`Listas ${where}`}>
        Sube la Lista de Personas Bloqueadas de la UIF como la recibes (CSV o XLSX) y di qué columna tiene qué. Cada archivo se guarda como una
        versión con su fecha y su huella; un archivo con errores no importa nada. La lista consolidada de la ONU la importa Perfil Seguro.
      </TabHeading>

      <section className="rounded-box border border-base-300 p-4" aria-labelledby={`${id}-upload`}>
        <h3 id={`${id}-upload`} className="font-semibold">
          Subir una lista
        </h3>
        <form className="mt-4 space-y-4" onSubmit={submit} noValidate>
          <Field label="Archivo (CSV o XLSX, hasta 10 MB)" htmlFor={`${id}-file`}>
            <input
              id={`${id}-file`}
              type="file"
              accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              className="file-input w-full max-w-md"
              onChange={(e) => void choose(e.target.files?.[0])}
            />
          </Field>
          {reading && <p className="text-sm text-base-content/70">Leyendo el encabezado…</p>}
          {preview && mapping && (
            <>
              <Field label="Nombre de la lista (con el mismo nombre, una nueva versión)" htmlFor={`${id}-name`}>
                <Input id={`${id}-name`} maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
              </Field>
              <fieldset className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
                <legend className="mb-2 text-sm font-medium">¿Qué columna tiene qué?</legend>
                {MAPPING_FIELDS.map((f) => (
                  <Field key={f.key} label={f.label} htmlFor={`${id}-${f.key}`}>
                    <Select
                      id={`${id}-${f.key}`}
                      className="w-full"
                      options={options}
                      value={mapping[f.key]}
                      onChange={(e) => setMapping({ ...mapping, [f.key]: e.target.value })}
                    />
                  </Field>
                ))}
              </fieldset>
              {preview.sample.length > 0 && (
                <div className="overflow-x-auto">
                  <table className="table table-xs" aria-label="Primeras filas del archivo">
                    <thead>
                      <tr>
                        {preview.columns.map((c, i) => (
                          <th key={i}>{c}</th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {preview.sample.map((row, i) => (
                        <tr key={i}>
                          {preview.columns.map((_, j) => (
                            <td key={j}>{row[j] ?? ''}</td>
                          ))}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
              <Button type="submit" disabled={upload.isPending} pending={upload.isPending}>
                Importar lista
              </Button>
            </>
          )}
          {error && (
            <p className="text-sm text-error" role="alert">
              {error}
            </p>
          )}
        </form>
      </section>

      <ConsoleTable
        columns={['Lista', 'Versión', 'Importada', 'Archivo', 'Registros', 'Huella SHA-256']}
        query={lists}
        errorText="No pudimos cargar las listas."
        isEmpty={rows.length === 0}
        empty={<>Aún no hay listas {where}.</>}
      >
        {rows.flatMap((l) =>
          l.versions.map((v, i) => (
            <tr key={`${l.id}-${v.version}`} data-testid="list-version-row">
              <td>
                {i === 0 && (
                  <>
                    <span className="font-medium break-words">{l.name}</span>{' '}
                    {l.public && (
                      <Badge variant="outline" className="badge-sm">
                        Pública
                      </Badge>
                    )}
                  </>
                )}
              </td>
              <td>{v.version}</td>
              <td className="whitespace-nowrap">{formatDateTimeMx(v.importedAt)}</td>
              <td className="break-all">{v.fileName}</td>
              <td>{v.entries.toLocaleString('es-MX')}</td>
              <td>
                <code className="font-mono text-xs" title={v.sha256}>
                  {v.sha256.slice(0, 12)}…
                </code>
              </td>
            </tr>
          )),
        )}
      </ConsoleTable>
      <TimeZoneNote />
    </div>
  )
}

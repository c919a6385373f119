import { formatDateTimeMx } from '@/lib/format'
import { useSignedOutOn } from '../api/get-console-me'
import { useTestInbox } from '../api/test-inbox'
import type { TestMessage } from '../types'
import { ConsoleTable, TimeZoneNote } from './table-message'
import { TabHeading } from './tab-heading'

const CHANNEL_LABEL: Record<TestMessage['channel'], string> = { whatsapp: 'WhatsApp', sms: 'SMS', email: 'Correo' }

/**
 * "Bandeja de prueba": what the phones and e-mail of the platform's test people would have
 * received (codes, links). Test keys never send a real message, in production either.
 */
export function TestInboxTab() {
  const inbox = useTestInbox()
  useSignedOutOn(inbox.error)
  const rows = inbox.data?.data ?? []

  return (
    <section className="space-y-4" aria-labelledby="test-inbox-title">
      <TabHeading id="test-inbox-title" title="Bandeja de prueba">
        Con tus llaves de prueba no enviamos mensajes reales: los códigos y enlaces de tus personas de prueba llegan aquí.
      </TabHeading>
      <ConsoleTable
        columns={['Para', 'Canal', 'Mensaje', 'Fecha']}
        query={inbox}
        errorText="No pudimos cargar tu bandeja de prueba."
        isEmpty={rows.length === 0}
        empty={<>Aún no hay mensajes. Abre una sesión con tu llave secreta de prueba y regístrate en ella.</>}
      >
        {rows.map((m) => (
          <tr key={m.id}>
            <td className="break-all">{m.recipient}</td>
            <td>{CHANNEL_LABEL[m.channel]}</td>
            <td className="max-w-md break-words">
              {m.subject && <p className="font-medium">{m.subject}</p>}
              <p className="whitespace-pre-line">{m.text}</p>
            </td>
            <td className="whitespace-nowrap">{formatDateTimeMx(m.createdAt)}</td>
          </tr>
        ))}
      </ConsoleTable>
      <TimeZoneNote />
    </section>
  )
}

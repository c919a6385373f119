import { Card, CardBody, CardDescription, CardTitle } from '@/components/ui/card'
import type { PrivacyUser } from '../api/update-personal-data'
import { ArcoRequestsSection } from './arco-requests-section'
import { ConsultationsSection } from './consultations-section'
import { DataExportSection } from './data-export-section'
import { DeleteAccountSection } from './delete-account-section'
import { PartnerAccessSection } from './partner-access-section'
import { RectificationSection } from './rectification-section'
import { SecondaryUsesSection } from './secondary-uses-section'

/**
 * "Mis datos" on Mi Perfil: the person's rights over their data (ARCO) without writing to us:
 * download, correct, object to secondary uses, follow their requests, see who looked, delete.
 * onUserChanged refreshes what the rest of the profile shows after a correction.
 */
export function MyDataCard({ user, onUserChanged }: { user: PrivacyUser; onUserChanged: () => void }) {
  const userId = String(user.id)
  return (
    <Card data-testid="my-data">
      <CardBody className="gap-0">
        <CardTitle className="text-lg">Mis datos</CardTitle>
        <CardDescription>Consulta, corrige o elimina tus datos cuando quieras.</CardDescription>
        <div className="mt-4 divide-y divide-base-300 [&>*]:py-5 [&>*:first-child]:pt-0 [&>*:last-child]:pb-0">
          <DataExportSection userId={userId} />
          <RectificationSection user={user} onUserChanged={onUserChanged} />
          <SecondaryUsesSection userId={userId} />
          <ArcoRequestsSection userId={userId} />
          <ConsultationsSection userId={userId} />
          <PartnerAccessSection userId={userId} />
          <div>
            <DeleteAccountSection userId={userId} />
          </div>
        </div>
      </CardBody>
    </Card>
  )
}

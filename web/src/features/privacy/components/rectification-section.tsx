import { UserPen } from 'lucide-react'
import type { PrivacyUser } from '../api/update-personal-data'
import { ContactChangeForm } from './contact-change-form'
import { MyDataSection } from './my-data-section'
import { NameForm } from './name-form'

/** "Corregir mis datos" (rectificación): the name, and the e-mail or phone confirmed with a code. */
export function RectificationSection({ user, onUserChanged }: { user: PrivacyUser; onUserChanged: () => void }) {
  return (
    <MyDataSection title="Corregir mis datos" icon={UserPen} testId="rectification">
      <div className="grid gap-6 md:grid-cols-2">
        <NameForm user={user} onUserChanged={onUserChanged} />
        <ContactChangeForm userId={String(user.id)} onUserChanged={onUserChanged} />
      </div>
    </MyDataSection>
  )
}

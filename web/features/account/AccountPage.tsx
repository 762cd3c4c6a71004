import type { ReactNode } from 'react'
import { useTitle } from '../../app/use-title.js'
import { useSignedIn } from '../session/RequireSession.js'
import { ChangePasswordForm } from './ChangePasswordForm.js'
import { DeleteAccountSection } from './DeleteAccountSection.js'
import { EmailSection } from './EmailSection.js'
import { ProfileForm } from './ProfileForm.js'

const Section = ({ id, title, children }: { id: string; title: string; children: ReactNode }) => (
  <section aria-labelledby={id} className="card">
    <h2 id={id}>{title}</h2>
    {children}
  </section>
)

export const AccountPage = () => {
  useTitle('Your account')
  const { user } = useSignedIn()
  return (
    <>
      <h1>Your account</h1>
      <Section id="profile-heading" title="Profile">
        <ProfileForm user={user} />
      </Section>
      <Section id="email-heading" title="Email">
        <EmailSection user={user} />
      </Section>
      <Section id="password-heading" title="Password">
        <ChangePasswordForm />
      </Section>
      <Section id="delete-heading" title="Delete account">
        <DeleteAccountSection user={user} />
      </Section>
    </>
  )
}

import { useTitle } from '../../app/use-title.js'
import { useSignedIn } from '../session/RequireSession.js'
import { SessionList } from './SessionList.js'

export const SecurityPage = () => {
  useTitle('Security')
  const { session } = useSignedIn()
  return (
    <>
      <h1>Security</h1>
      <p>
        These devices are signed in to your account. If you do not recognise one, sign it out and change your
        password.
      </p>
      <SessionList currentSessionId={session.id} />
    </>
  )
}

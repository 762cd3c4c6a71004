import { useState } from 'react'
import { Button } from '../../ui/Button.js'
import { Notice } from '../../ui/Notice.js'
import { messageFor } from '../errors/messages.js'
import { checkEmail } from '../forms/checks.js'
import { emailMeALink } from './passwordless.requests.js'
import './passwordless.css'

type Props = {
  /** What the person typed in the sign-in form's email field. */
  email: string
  /** Where the link leads once followed (a path of the portal). */
  returnTo: string
  /** On the OpenID provider's login page: the application's signed request, which goes on after. */
  oauthQuery?: string
}

/** "Email me a link": a sign-in link to the address typed above, instead of a password. */
export const EmailLinkSignIn = ({ email, returnTo, oauthQuery }: Props) => {
  const [pending, setPending] = useState(false)
  const [sentTo, setSentTo] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)

  const send = async () => {
    const address = email.trim()
    const invalid = checkEmail(address)
    setProblem(invalid)
    if (invalid || pending) return
    setPending(true)
    try {
      await emailMeALink(address, returnTo, oauthQuery)
      setSentTo(address)
    } catch (error) {
      setProblem(messageFor(error))
    } finally {
      setPending(false)
    }
  }

  return (
    <div className="passwordless">
      <Button onClick={send} pending={pending} pendingLabel="Sending the link…">
        Email me a link
      </Button>
      {problem ? <Notice tone="error">{problem}</Notice> : null}
      {sentTo ? (
        <Notice tone="success">
          {`If ${sentTo} can receive mail, a sign-in link is on its way. Open it on this device; it works once, for a few minutes.`}
        </Notice>
      ) : null}
    </div>
  )
}

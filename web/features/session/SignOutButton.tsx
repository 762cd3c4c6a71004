import { useState } from 'react'
import { useNavigate } from 'react-router'
import { Button } from '../../ui/Button.js'
import { isApiError } from '../errors/api-error.js'
import { messageFor } from '../errors/messages.js'
import { useListDeviceSessionsQuery } from '../multi-session/multi-session.api.js'
import { useSignOutMutation } from './session.api.js'
import { useForgetSession } from './use-session-actions.js'

/**
 * The header's sign-out. better-auth's sign-out ends every account signed in on this device (the
 * account switcher signs out one), so with several accounts the button says so.
 */
export const SignOutButton = () => {
  const [signOut, { isLoading }] = useSignOutMutation()
  const accounts = useListDeviceSessionsQuery().data?.length ?? 1
  const forget = useForgetSession()
  const navigate = useNavigate()
  const [problem, setProblem] = useState<string | null>(null)

  const onClick = async () => {
    setProblem(null)
    try {
      await signOut().unwrap()
    } catch (error) {
      // A 401 means the session had already ended: the person is signed out either way.
      if (!isApiError(error) || error.status !== 401) {
        setProblem(messageFor(error))
        return
      }
    }
    navigate('/sign-in', { replace: true, state: { notice: 'You are signed out.' } })
    forget()
  }

  return (
    <>
      <Button size="small" onClick={() => void onClick()} pending={isLoading} pendingLabel="Signing out…">
        {accounts > 1 ? 'Sign out of all accounts' : 'Sign out'}
      </Button>
      {problem ? (
        <p role="alert" className="field-error">
          {problem}
        </p>
      ) : null}
    </>
  )
}

import { useEffect, useState } from 'react'
import { useNavigate } from 'react-router'
import { Button } from '../../ui/Button.js'
import { useStopImpersonatingMutation } from './admin.api.js'
import './admin.css'

/** The time now, renewed every minute (what "minutes left" needs). */
const useMinuteClock = () => {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000)
    return () => clearInterval(timer)
  }, [])
  return now
}

/** "52 minutes left", "1 minute left", "less than a minute left". */
export const timeLeft = (ms: number): string => {
  const minutes = Math.floor(ms / 60_000)
  if (minutes < 1) return 'less than a minute left'
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'} left`
}

/**
 * Shown on every account page while an operator acts as someone (their session carries
 * `impersonatedBy`): whose account this is, and the way back to the operator's own session.
 */
export const ImpersonationBanner = ({
  name,
  impersonatedBy,
  userId,
  expiresAt,
}: {
  name: string
  impersonatedBy: string | null | undefined
  /** Whose account this is: "Stop impersonating" returns to their page in the console. */
  userId?: string
  /** When the impersonation session ends. */
  expiresAt?: string
}) => {
  const [stop, { isLoading }] = useStopImpersonatingMutation()
  const navigate = useNavigate()
  const now = useMinuteClock()
  if (!impersonatedBy) return null
  const left = expiresAt ? timeLeft(new Date(expiresAt).getTime() - now) : null
  return (
    <div className="impersonation-banner" role="status">
      <p>
        You are acting as <strong>{name}</strong>
        {left ? `, ${left}` : ''}. Everything you do is recorded as support acting on their behalf.
      </p>
      <Button
        variant="primary"
        size="small"
        pending={isLoading}
        pendingLabel="Returning…"
        onClick={async () => {
          const result = await stop()
          if (!('error' in result)) navigate(userId ? `/admin/users/${userId}` : '/admin/users')
        }}
      >
        Stop impersonating
      </Button>
    </div>
  )
}

import { useNavigate } from 'react-router'
import { Button } from '../../ui/Button.js'
import { useStopImpersonatingMutation } from './admin.api.js'
import './admin.css'

/**
 * Shown on every account page while an operator acts as someone (their session carries
 * `impersonatedBy`): whose account this is, and the way back to the operator's own session.
 */
export const ImpersonationBanner = ({
  name,
  impersonatedBy,
}: {
  name: string
  impersonatedBy: string | null | undefined
}) => {
  const [stop, { isLoading }] = useStopImpersonatingMutation()
  const navigate = useNavigate()
  if (!impersonatedBy) return null
  return (
    <div className="impersonation-banner" role="status">
      <p>
        You are acting as <strong>{name}</strong>. Everything you do is recorded as support acting on their
        behalf.
      </p>
      <Button
        variant="primary"
        size="small"
        pending={isLoading}
        pendingLabel="Returning…"
        onClick={async () => {
          const result = await stop()
          if (!('error' in result)) navigate('/admin/users')
        }}
      >
        Stop impersonating
      </Button>
    </div>
  )
}

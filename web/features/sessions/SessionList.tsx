import { formatTime } from '../../app/time.js'
import { messageFor } from '../errors/messages.js'
import { FormAlert, Notice } from '../forms/Feedback.js'
import { Loading } from '../forms/Loading.js'
import type { Session } from '../session/session.api.js'
import {
  useListSessionsQuery,
  useRevokeOtherSessionsMutation,
  useRevokeSessionMutation,
} from './sessions.api.js'
import { describeUserAgent } from './user-agent.js'

// This device first, then the most recently active.
const ordered = (sessions: readonly Session[], currentId: string): Session[] =>
  [...sessions].sort((a, b) => {
    if (a.id === currentId) return -1
    if (b.id === currentId) return 1
    return b.updatedAt.localeCompare(a.updatedAt)
  })

const SessionItem = ({ session, current }: { session: Session; current: boolean }) => {
  const [revoke, { isLoading, error }] = useRevokeSessionMutation()
  const device = describeUserAgent(session.userAgent)
  const headingId = `session-${session.id}`
  return (
    <li className="card session" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {device}
        {current ? (
          <>
            {' '}
            <span className="badge badge-good">This device</span>
          </>
        ) : null}
      </h3>
      <dl className="facts">
        <dt>IP address</dt>
        <dd>{session.ipAddress || 'Unknown'}</dd>
        <dt>Signed in</dt>
        <dd>
          <time dateTime={session.createdAt}>{formatTime(session.createdAt)}</time>
        </dd>
        <dt>Last active</dt>
        <dd>
          <time dateTime={session.updatedAt}>{formatTime(session.updatedAt)}</time>
        </dd>
      </dl>
      {current ? (
        <p className="hint">To end this session, use “Sign out” at the top of the page.</p>
      ) : (
        <button
          type="button"
          className="button button-quiet"
          disabled={isLoading}
          aria-busy={isLoading}
          aria-describedby={headingId}
          onClick={() => void revoke({ token: session.token })}
        >
          {isLoading ? 'Ending…' : 'End session'}
        </button>
      )}
      {error ? <p className="field-error">{messageFor(error)}</p> : null}
    </li>
  )
}

const RevokeOthers = ({ count }: { count: number }) => {
  const [revokeOthers, { isLoading, error, isSuccess }] = useRevokeOtherSessionsMutation()
  return (
    <div className="actions">
      <FormAlert>{error ? messageFor(error) : null}</FormAlert>
      <Notice>{isSuccess && count === 0 ? 'Your other devices are signed out.' : null}</Notice>
      {count > 0 ? (
        <button
          type="button"
          className="button button-danger"
          disabled={isLoading}
          aria-busy={isLoading}
          onClick={() => void revokeOthers()}
        >
          {isLoading ? 'Signing out…' : `Sign out all other devices (${count})`}
        </button>
      ) : null}
    </div>
  )
}

/** Every device signed in to the account, the current one marked. */
export const SessionList = ({ currentSessionId }: { currentSessionId: string }) => {
  const { data: sessions, isLoading, error } = useListSessionsQuery()
  if (isLoading) return <Loading label="Loading your devices…" />
  if (!sessions) return <FormAlert>{messageFor(error)}</FormAlert>
  const others = sessions.filter((session) => session.id !== currentSessionId).length
  return (
    <>
      <ul className="list" aria-label="Signed-in devices">
        {ordered(sessions, currentSessionId).map((session) => (
          <SessionItem key={session.id} session={session} current={session.id === currentSessionId} />
        ))}
      </ul>
      <RevokeOthers count={others} />
    </>
  )
}

import { useRef, useState } from 'react'
import { Badge } from '../../ui/Badge.js'
import { Button } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { Confirm } from '../../ui/Confirm.js'
import { ErrorState } from '../../ui/ErrorState.js'
import { Icon, type IconName } from '../../ui/icons.js'
import { Notice } from '../../ui/Notice.js'
import { Loading } from '../../ui/Skeleton.js'
import { messageFor } from '../errors/messages.js'
import type { Session } from '../session/session.api.js'
import { placeName } from './place.js'
import { useSessionFactorsQuery } from './session-factors.api.js'
import {
  useListSessionsQuery,
  useRevokeOtherSessionsMutation,
  useRevokeSessionMutation,
} from './sessions.api.js'
import { signInMethodsOf } from './sign-in-methods.js'
import { describeUserAgent, parseUserAgent } from './user-agent.js'
import './sessions.css'
import { Time } from '../../ui/Time.js'

// This device first, then the most recently active.
const ordered = (sessions: readonly Session[], currentId: string): Session[] =>
  [...sessions].sort((a, b) => {
    if (a.id === currentId) return -1
    if (b.id === currentId) return 1
    return b.updatedAt.localeCompare(a.updatedAt)
  })

const MOBILE = new Set(['Android', 'iOS', 'iPadOS'])

const iconOf = (userAgent: string | null): IconName => {
  const { browser, os } = parseUserAgent(userAgent)
  if (os && MOBILE.has(os)) return 'phone'
  if (!os && browser) return 'terminal'
  return 'monitor'
}

type ItemProps = { session: Session; current: boolean; onEnded: (device: string) => void }

const SessionItem = ({ session, current, onEnded }: ItemProps) => {
  const [revoke, { isLoading, error }] = useRevokeSessionMutation()
  const device = describeUserAgent(session.userAgent)
  // Known only when the operator's proxy placed the device's address: otherwise nothing is shown.
  const place = placeName(session)
  const methods = signInMethodsOf(
    useSessionFactorsQuery().data?.find((entry) => entry.id === session.id)?.amr,
  )
  const headingId = `session-${session.id}`
  const end = async () => {
    const result = await revoke({ token: session.token })
    if (!('error' in result)) onEnded(device)
  }
  return (
    <li className="device" aria-labelledby={headingId}>
      <span className="session-icon">
        <Icon name={iconOf(session.userAgent)} size={20} />
      </span>
      <h3 id={headingId} className="device-title">
        {device}
        {current ? (
          <>
            {' '}
            <Badge tone="success">This device</Badge>
          </>
        ) : null}
      </h3>
      {current ? null : (
        <div className="device-action">
          <Button
            size="small"
            pending={isLoading}
            pendingLabel="Ending…"
            aria-describedby={headingId}
            onClick={() => void end()}
          >
            End session
          </Button>
        </div>
      )}
      <div className="device-details">
        {/* The same columns for every device, the place last: a device without one keeps the others in line. */}
        <dl className="facts">
          <div>
            <dt>Signed in</dt>
            <dd>
              <Time value={session.createdAt} />
            </dd>
          </div>
          <div>
            <dt>Last active</dt>
            <dd>
              <Time value={session.updatedAt} />
            </dd>
          </div>
          <div>
            <dt>IP address</dt>
            <dd>{session.ipAddress || 'Unknown'}</dd>
          </div>
          {methods ? (
            <div>
              <dt>Signed in with</dt>
              <dd>{methods}</dd>
            </div>
          ) : null}
          {place ? (
            <div>
              <dt>Location</dt>
              <dd>{place}</dd>
            </div>
          ) : null}
        </dl>
        {current ? <p className="muted small">Use “Sign out” at the top to end it.</p> : null}
        {error ? <Notice tone="error">{messageFor(error)}</Notice> : null}
      </div>
    </li>
  )
}

type OthersProps = { count: number; onDone: () => void }

/** "Sign out all other devices", confirmed in a second step: it cannot be taken back. */
const RevokeOthers = ({ count, onDone }: OthersProps) => {
  const [revokeOthers, { isLoading, error }] = useRevokeOtherSessionsMutation()
  const [asking, setAsking] = useState(false)
  const opener = useRef<HTMLButtonElement>(null)
  const devices = count === 1 ? '1 other device' : `${count} other devices`

  const confirm = async () => {
    const result = await revokeOthers()
    if ('error' in result) return
    setAsking(false)
    onDone()
  }
  const cancel = () => {
    setAsking(false)
    requestAnimationFrame(() => opener.current?.focus())
  }

  if (count === 0) return null
  if (!asking) {
    return (
      <Button ref={opener} variant="danger-outline" onClick={() => setAsking(true)}>
        Sign out all other devices ({count})
      </Button>
    )
  }
  return (
    <Confirm
      question={`Sign out ${devices}?`}
      consequence="They will have to sign in again with your password."
      refusal={error ? messageFor(error) : null}
      confirmLabel={`Sign out ${devices}`}
      pendingLabel="Signing out…"
      pending={isLoading}
      onConfirm={() => void confirm()}
      onCancel={cancel}
    />
  )
}

/** Every device signed in to the account, the current one marked. */
export const SessionList = ({ currentSessionId }: { currentSessionId: string }) => {
  const { data: sessions, isLoading, error, refetch, isFetching } = useListSessionsQuery()
  const [done, setDone] = useState<string | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  // What had focus is gone (its device, or the button): the list itself takes it, with the news.
  const report = (message: string) => {
    setDone(message)
    heading.current?.focus()
  }

  if (isLoading) return <Loading label="Loading your devices…" />
  if (!sessions)
    return <ErrorState message={messageFor(error)} onRetry={() => void refetch()} retrying={isFetching} />
  const others = sessions.filter((session) => session.id !== currentSessionId).length
  return (
    <Card
      title="Signed-in devices"
      description="If you do not recognise a device, end its session and change your password."
      headingRef={heading}
      footer={
        others > 0 ? (
          <RevokeOthers count={others} onDone={() => report('Your other devices are signed out.')} />
        ) : undefined
      }
    >
      <Notice tone="success">{done}</Notice>
      <ul className="rows" aria-label="Signed-in devices">
        {ordered(sessions, currentSessionId).map((session) => (
          <SessionItem
            key={session.id}
            session={session}
            current={session.id === currentSessionId}
            onEnded={(device) => report(`${device} is signed out.`)}
          />
        ))}
      </ul>
    </Card>
  )
}

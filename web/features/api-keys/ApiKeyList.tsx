import { useRef, useState } from 'react'
import { Badge } from '../../ui/Badge.js'
import { Button } from '../../ui/Button.js'
import { Confirm } from '../../ui/Confirm.js'
import { Icon } from '../../ui/icons.js'
import { Notice } from '../../ui/Notice.js'
import { Time } from '../../ui/Time.js'
import { messageFor } from '../errors/messages.js'
import { type ApiKey, useDeleteApiKeyMutation, useUpdateApiKeyMutation } from './api-keys.api.js'

const labelOf = (key: ApiKey) => key.name ?? 'Unnamed key'

/** "3 uses", with what is left when the key may be used a set number of times in all. */

/** How a key is told apart in the list: its first characters and, where kept, its last four. */
const keyHint = ({ start, lastFour }: ApiKey): string =>
  start ? `${start}…${lastFour ?? ''}` : lastFour ? `…${lastFour}` : '—'

export const usageOf = (key: ApiKey): string => {
  const uses = key.requestCount === 1 ? '1 use' : `${key.requestCount} uses`
  return key.remaining === null ? uses : `${uses}, ${key.remaining} left`
}

const UNITS = [
  { ms: 86_400_000, one: 'a day', many: 'days' },
  { ms: 3_600_000, one: 'an hour', many: 'hours' },
  { ms: 60_000, one: 'a minute', many: 'minutes' },
  { ms: 1_000, one: 'a second', many: 'seconds' },
] as const

const perWindow = (windowMs: number): string => {
  const unit = UNITS.find((candidate) => windowMs % candidate.ms === 0) ?? UNITS[3]
  const count = windowMs / unit.ms
  return count === 1 ? unit.one : `every ${count} ${unit.many}`
}

/**
 * The rate limit the server enforces on the key, as it answers it (a deployment's default, or the
 * one set on the key): "10 requests a day", "100 requests every 5 minutes", or "None".
 */
export const limitOf = (key: ApiKey): string => {
  if (!key.rateLimitEnabled || key.rateLimitMax === null || !key.rateLimitTimeWindow) return 'None'
  const requests = key.rateLimitMax === 1 ? '1 request' : `${key.rateLimitMax} requests`
  return `${requests} ${perWindow(key.rateLimitTimeWindow)}`
}

const expired = (key: ApiKey, now: number) => key.expiresAt !== null && Date.parse(key.expiresAt) <= now

/** Deleting is confirmed in a second step: a program using the key stops working. */
const DeleteKey = ({
  apiKey,
  headingId,
  onDeleted,
}: {
  apiKey: ApiKey
  headingId: string
  onDeleted: () => void
}) => {
  const [remove, { isLoading, error }] = useDeleteApiKeyMutation()
  const [asking, setAsking] = useState(false)
  const opener = useRef<HTMLButtonElement>(null)
  const confirm = async () => {
    const result = await remove({ keyId: apiKey.id })
    if (!('error' in result)) onDeleted()
  }
  const cancel = () => {
    setAsking(false)
    requestAnimationFrame(() => opener.current?.focus())
  }
  if (!asking)
    return (
      <Button
        ref={opener}
        size="small"
        variant="danger-outline"
        aria-describedby={headingId}
        onClick={() => setAsking(true)}
      >
        Delete
      </Button>
    )
  return (
    <Confirm
      question={`Delete “${labelOf(apiKey)}”?`}
      consequence="Anything still using it is refused from now on."
      refusal={error ? messageFor(error) : null}
      confirmLabel="Delete key"
      pendingLabel="Deleting…"
      pending={isLoading}
      size="small"
      onConfirm={() => void confirm()}
      onCancel={cancel}
    />
  )
}

type ItemProps = { apiKey: ApiKey; now: number; onChanged: (message: string) => void }

const ApiKeyItem = ({ apiKey, now, onChanged }: ItemProps) => {
  const [update, { isLoading, error }] = useUpdateApiKeyMutation()
  const headingId = `api-key-${apiKey.id}`
  const toggle = async () => {
    const result = await update({ keyId: apiKey.id, enabled: !apiKey.enabled })
    if (!('error' in result)) onChanged(`“${labelOf(apiKey)}” is ${apiKey.enabled ? 'disabled' : 'enabled'}.`)
  }
  return (
    <li className="session" aria-labelledby={headingId}>
      <span className="session-icon">
        <Icon name="key" size={20} />
      </span>
      <div className="session-body">
        <h3 id={headingId}>
          {labelOf(apiKey)}
          {!apiKey.enabled ? <Badge tone="warning">Disabled</Badge> : null}
          {expired(apiKey, now) ? <Badge tone="warning">Expired</Badge> : null}
        </h3>
        <dl className="facts">
          <div>
            <dt>Key</dt>
            <dd className="api-key-start">{keyHint(apiKey)}</dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd>
              <Time value={apiKey.createdAt} />
            </dd>
          </div>
          <div>
            <dt>Expires</dt>
            <dd>{apiKey.expiresAt ? <Time value={apiKey.expiresAt} /> : 'Never'}</dd>
          </div>
          <div>
            <dt>Last used</dt>
            <dd>{apiKey.lastRequest ? <Time value={apiKey.lastRequest} /> : 'Never'}</dd>
          </div>
          <div>
            <dt>Usage</dt>
            <dd>{usageOf(apiKey)}</dd>
          </div>
          <div>
            <dt>Rate limit</dt>
            <dd>{limitOf(apiKey)}</dd>
          </div>
        </dl>
        {error ? <Notice tone="error">{messageFor(error)}</Notice> : null}
      </div>
      <div className="session-action api-key-actions">
        <Button
          size="small"
          pending={isLoading}
          pendingLabel="Saving…"
          aria-describedby={headingId}
          onClick={() => void toggle()}
        >
          {apiKey.enabled ? 'Disable' : 'Enable'}
        </Button>
        <DeleteKey
          apiKey={apiKey}
          headingId={headingId}
          onDeleted={() => onChanged(`“${labelOf(apiKey)}” is deleted.`)}
        />
      </div>
    </li>
  )
}

export const ApiKeyList = ({
  keys,
  label,
  empty,
  onChanged,
}: {
  keys: readonly ApiKey[]
  /** The list's accessible name ("Your API keys"). */
  label: string
  /** What shows when there is no key yet. */
  empty: string
  onChanged: (message: string) => void
}) => {
  const now = Date.now()
  if (keys.length === 0) return <p className="muted">{empty}</p>
  return (
    <ul className="rows" aria-label={label}>
      {keys.map((apiKey) => (
        <ApiKeyItem key={apiKey.id} apiKey={apiKey} now={now} onChanged={onChanged} />
      ))}
    </ul>
  )
}

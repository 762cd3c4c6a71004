import { useCallback, useEffect, useRef, useState } from 'react'
import { useSearchParams } from 'react-router'
import { Button } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { Notice } from '../../ui/Notice.js'
import { Loading } from '../../ui/Skeleton.js'
import { messageFor } from '../errors/messages.js'
import { describeCallbackError } from './callback-errors.js'
import { RemovePassword } from './RemovePassword.js'
import './social.css'
import {
  goTo,
  type LinkedAccount,
  listAccounts,
  listProviders,
  type SocialProvider,
  startLink,
  unlinkAccount,
} from './social.requests.js'

const PASSWORD = 'credential'

/**
 * The ways to sign in to this account: connect another provider, disconnect one, or remove the
 * password. The last way to sign in cannot be removed, and the page says why before anyone tries.
 */
export const ConnectedAccounts = () => {
  const [providers, setProviders] = useState<SocialProvider[]>([])
  const [accounts, setAccounts] = useState<LinkedAccount[] | null>(null)
  const [pending, setPending] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [news, setNews] = useState<string | null>(null)
  const [params] = useSearchParams()
  // After a removal the button that had focus is gone: the card's heading takes it, with the news.
  const heading = useRef<HTMLHeadingElement>(null)

  const load = useCallback(async () => {
    const [offered, linked] = await Promise.all([listProviders().catch(() => []), listAccounts()])
    setProviders(offered)
    setAccounts(linked)
  }, [])

  useEffect(() => {
    load().catch((error) => setProblem(messageFor(error)))
  }, [load])

  const callbackError = params.get('error')
  const shownProblem = problem ?? (callbackError ? describeCallbackError(callbackError) : null)
  const justLinked = params.has('linked') ? 'The account was connected.' : null

  if (accounts === null) return shownProblem ? <Notice tone="error">{shownProblem}</Notice> : <Loading />
  const nameOf = (providerId: string) =>
    providers.find((provider) => provider.id === providerId)?.name ?? providerId
  const social = accounts.filter((account) => account.providerId !== PASSWORD)
  const onlyWayIn = accounts.length <= 1
  const connectable = providers.filter((provider) => !social.some((a) => a.providerId === provider.id))

  const connect = async (provider: SocialProvider) => {
    setPending(provider.id)
    setProblem(null)
    try {
      goTo((await startLink(provider.id)).url)
    } catch (error) {
      setProblem(messageFor(error))
      setPending(null)
    }
  }
  const unlink = async (account: LinkedAccount, done: string) => {
    setPending(account.id)
    setProblem(null)
    setNews(null)
    try {
      await unlinkAccount(account.id, account.providerId === PASSWORD ? PASSWORD : undefined)
      await load()
      setNews(done)
      heading.current?.focus()
    } catch (error) {
      setProblem(messageFor(error))
    } finally {
      setPending(null)
    }
  }
  const disconnect = (account: LinkedAccount) =>
    unlink(account, `${nameOf(account.providerId)} was disconnected.`)
  const password = accounts.find((account) => account.providerId === PASSWORD)

  return (
    <Card
      title="Connected accounts"
      description="Ways to sign in to your account: services you connected, and your password."
      headingRef={heading}
    >
      <Notice tone="error">{shownProblem}</Notice>
      <Notice tone="success">{news ?? justLinked}</Notice>
      {social.length === 0 ? <p>No service is connected.</p> : null}
      <ul className="rows" aria-label="Connected services">
        {social.map((account) => (
          <li key={account.id} className="social-account">
            <span>{nameOf(account.providerId)}</span>
            <Button
              size="small"
              variant="danger-outline"
              onClick={() => disconnect(account)}
              pending={pending === account.id}
              pendingLabel="Disconnecting…"
              disabled={onlyWayIn}
              aria-describedby={onlyWayIn ? 'last-way-in' : undefined}
            >
              Disconnect {nameOf(account.providerId)}
            </Button>
          </li>
        ))}
      </ul>
      {onlyWayIn && social.length > 0 ? (
        <p id="last-way-in" className="small">
          This is your only way to sign in. Set a password or connect another service before disconnecting it.
        </p>
      ) : null}
      {password ? (
        <RemovePassword
          others={social.map((account) => nameOf(account.providerId))}
          pending={pending === password.id}
          onRemove={() =>
            void unlink(
              password,
              'Your password is removed. You sign in with a connected service from now on.',
            )
          }
        />
      ) : null}
      {connectable.length > 0 ? (
        <ul className="stack" aria-label="Connect a service">
          {connectable.map((provider) => (
            <li key={provider.id}>
              <Button
                onClick={() => connect(provider)}
                pending={pending === provider.id}
                pendingLabel={`Opening ${provider.name}…`}
              >
                Connect {provider.name}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </Card>
  )
}

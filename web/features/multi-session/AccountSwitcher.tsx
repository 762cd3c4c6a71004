import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { Avatar } from '../../ui/Avatar.js'
import { Icon } from '../../ui/icons.js'
import { ADD_ACCOUNT_PATH } from '../auth/navigation-state.js'
import { messageFor } from '../errors/messages.js'
import { type SignedIn, type User, useSignOutMutation } from '../session/session.api.js'
import {
  type DeviceSession,
  useListDeviceSessionsQuery,
  useRevokeDeviceSessionMutation,
  useSetActiveSessionMutation,
} from './multi-session.api.js'

const nameOf = (user: User) => user.name.trim() || user.email
const handleOf = (user: User) => user.displayUsername ?? user.username ?? null

/** An account in the menu: the active one may come without its token (the portal never keeps it). */
type Account = SignedIn | DeviceSession

/**
 * The active account first (as the device list has it, with the token that signs it out; without
 * the list, as get-session had it), the others in the server's order.
 */
const accountsOf = (listed: DeviceSession[] | undefined, active: SignedIn): Account[] => {
  const others = (listed ?? []).filter((account) => account.user.id !== active.user.id)
  const listedActive = (listed ?? []).find((account) => account.user.id === active.user.id)
  return [listedActive ?? active, ...others]
}

const tokenOf = (account: Account): string | null =>
  'token' in account.session && typeof account.session.token === 'string' ? account.session.token : null

const itemsOf = (menu: HTMLElement | null): HTMLElement[] => [
  ...(menu?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? []),
]

/**
 * The header's account menu (WAI-ARIA menu button): the accounts signed in on this device, to
 * switch between them or sign out of one, and a way to add another. Arrow keys move through the
 * items, Escape closes and gives focus back to the button.
 */
export const AccountSwitcher = ({ signedIn }: { signedIn: SignedIn }) => {
  const { data: listed } = useListDeviceSessionsQuery()
  const accounts = accountsOf(listed, signedIn)
  const [setActive] = useSetActiveSessionMutation()
  const [revoke] = useRevokeDeviceSessionMutation()
  const [signOut] = useSignOutMutation()
  const navigate = useNavigate()
  const [open, setOpen] = useState(false)
  const [news, setNews] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const menuRef = useRef<HTMLDivElement>(null)
  const focusFirst = useRef(true)
  const menuId = useId()
  const groupLabelId = useId()
  const user = signedIn.user
  const handle = handleOf(user)

  useEffect(() => {
    if (!open) return
    const list = itemsOf(menuRef.current)
    ;(focusFirst.current ? list[0] : list.at(-1))?.focus()
    // A press outside closes the menu, as a click elsewhere would close a native one.
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('pointerdown', onPointerDown)
    return () => document.removeEventListener('pointerdown', onPointerDown)
  }, [open])

  const close = () => {
    setOpen(false)
    buttonRef.current?.focus()
  }

  const openWith = (first: boolean) => {
    focusFirst.current = first
    setOpen(true)
  }

  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return
    event.preventDefault()
    openWith(event.key === 'ArrowDown')
  }

  const onMenuKeyDown = (event: KeyboardEvent) => {
    const list = itemsOf(menuRef.current)
    const at = list.indexOf(document.activeElement as HTMLElement)
    const focus = (index: number) => list[(index + list.length) % list.length]?.focus()
    switch (event.key) {
      case 'ArrowDown':
        focus(at + 1)
        break
      case 'ArrowUp':
        focus(at - 1)
        break
      case 'Home':
        focus(0)
        break
      case 'End':
        focus(list.length - 1)
        break
      case 'Escape':
        close()
        break
      case 'Tab':
        // Tab leaves the menu for the next thing on the page; the menu does not stay behind.
        setOpen(false)
        return
      default:
        return
    }
    event.preventDefault()
  }

  const act = async (action: () => Promise<unknown>, done: string) => {
    close()
    setProblem(null)
    setNews('')
    try {
      await action()
      setNews(done)
    } catch (error) {
      setProblem(messageFor(error))
    }
  }

  const switchTo = (account: Account) => {
    const token = tokenOf(account)
    if (account.user.id === user.id || token === null) {
      close()
      return
    }
    void act(() => setActive({ sessionToken: token }).unwrap(), `Switched to ${nameOf(account.user)}.`)
  }

  const signOutOf = (account: Account) =>
    void act(
      () => {
        const token = tokenOf(account)
        // Only the active account can lack its token here, and signing out does the same for it.
        return token === null ? signOut().unwrap() : revoke({ sessionToken: token }).unwrap()
      },
      `Signed out of ${nameOf(account.user)}.`,
    )

  return (
    <div className="account-switcher" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="account-trigger"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        title={handle ? `${nameOf(user)} (@${handle})` : nameOf(user)}
        onClick={() => (open ? setOpen(false) : openWith(true))}
        onKeyDown={onButtonKeyDown}
      >
        <Avatar user={user} />
        <span className="account-trigger-text">
          <span className="visually-hidden">Accounts, signed in as </span>
          <span className="account-trigger-name">{nameOf(user)}</span>
          {handle ? <span className="account-trigger-handle">@{handle}</span> : null}
        </span>
        <Icon name="chevron-down" size={14} />
      </button>
      {open ? (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label="Accounts"
          className="menu"
          onKeyDown={onMenuKeyDown}
        >
          {/* biome-ignore lint/a11y/useSemanticElements: a menu's group (WAI-ARIA menu pattern), not a form's fieldset */}
          <div role="group" aria-labelledby={groupLabelId}>
            <div id={groupLabelId} className="menu-heading">
              Signed in on this device
            </div>
            {accounts.map((account) => {
              const active = account.user.id === user.id
              const accountHandle = handleOf(account.user)
              return (
                <button
                  key={account.user.id}
                  type="button"
                  role="menuitemradio"
                  aria-checked={active}
                  tabIndex={-1}
                  className="menu-item menu-account"
                  onClick={() => switchTo(account)}
                >
                  <Avatar user={account.user} size={32} />
                  <span className="menu-account-text">
                    <span className="menu-account-name">{nameOf(account.user)}</span>
                    <span className="menu-account-detail">
                      {accountHandle ? `@${accountHandle} · ` : ''}
                      {account.user.email}
                    </span>
                  </span>
                  {active ? <Icon name="check" /> : null}
                </button>
              )
            })}
          </div>
          <hr className="menu-separator" />
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            className="menu-item"
            onClick={() => {
              setOpen(false)
              navigate(ADD_ACCOUNT_PATH)
            }}
          >
            <Icon name="plus" />
            Add another account
          </button>
          {accounts.length > 1 ? (
            <>
              <hr className="menu-separator" />
              {accounts.map((account) => (
                <button
                  key={account.user.id}
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  className="menu-item"
                  onClick={() => signOutOf(account)}
                >
                  <Icon name="log-out" />
                  <span className="menu-item-label">Sign out of {nameOf(account.user)}</span>
                </button>
              ))}
            </>
          ) : null}
        </div>
      ) : null}
      <p role="status" className="visually-hidden">
        {news}
      </p>
      {problem ? (
        <p role="alert" className="field-error account-switcher-problem">
          {problem}
        </p>
      ) : null}
    </div>
  )
}

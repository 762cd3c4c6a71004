import type { ReactNode } from 'react'
import { Icon, type IconName } from './icons.js'

export type NoticeTone = 'info' | 'success' | 'warning' | 'error'

const ICON: Record<NoticeTone, IconName> = {
  info: 'info',
  success: 'check-circle',
  warning: 'warning',
  error: 'error',
}

type Props = {
  tone?: NoticeTone
  title?: ReactNode
  children?: ReactNode
  /**
   * How it is announced when it appears: errors interrupt (role=alert), news waits its turn
   * (role=status); 'none' for text that is part of the page from the start (a standing warning).
   */
  live?: 'auto' | 'none'
}

/** A message in a coloured box. Renders nothing without content, so it can stand in place. */
export const Notice = ({ tone = 'info', title, children, live = 'auto' }: Props) => {
  if (!children && !title) return null
  const role = live === 'none' ? undefined : tone === 'error' ? 'alert' : 'status'
  return (
    <div role={role} className={`notice notice-${tone}`}>
      <Icon name={ICON[tone]} />
      <div className="notice-body">
        {title ? <p className="notice-title">{title}</p> : null}
        {children ? <div>{children}</div> : null}
      </div>
    </div>
  )
}

import { useSyncExternalStore } from 'react'
import { formatTime, relativeTime } from '../app/time.js'

// One clock for every time on the page, ticking each 30 seconds while anything listens, so "now"
// becomes "1 minute ago" without a reload and the page does not run one timer per line.
let now = Date.now()
const listeners = new Set<() => void>()
let timer: ReturnType<typeof setInterval> | undefined
const subscribe = (listener: () => void) => {
  listeners.add(listener)
  if (!timer)
    timer = setInterval(() => {
      now = Date.now()
      for (const notify of listeners) notify()
    }, 30_000)
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0 && timer) {
      clearInterval(timer)
      timer = undefined
    }
  }
}
const snapshot = () => now

/**
 * A moment, shown as the reader reads it best: recent and near ones relatively ("3 minutes ago"),
 * others exactly with their time zone. The exact time is always there: on hover (title), for
 * machines (dateTime) and for screen readers (read after the relative words).
 */
export const Time = ({ value, className }: { value: string; className?: string }) => {
  // The shared clock only makes the line render again; the words read the clock itself, since the
  // shared one stands still while nothing listens.
  useSyncExternalStore(subscribe, snapshot, snapshot)
  const exactTime = formatTime(value)
  const words = relativeTime(value, Date.now())
  return (
    <time className={className} dateTime={value} title={words ? exactTime : undefined}>
      {words ?? exactTime}
      {words ? <span className="visually-hidden"> ({exactTime})</span> : null}
    </time>
  )
}

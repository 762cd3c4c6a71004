// The reader's own locale and time zone: these are their sign-ins, on their clock. The zone is
// named ("14:05 CET"), so a time read beside another person's (or a screenshot in a ticket) is exact.
const exact = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
})
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })

const parse = (iso: string): Date | null => {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? null : date
}

/** "12 Mar 2026, 14:05 CET" in the reader's locale and zone; the raw value when it is not a date. */
export const formatTime = (iso: string): string => {
  const date = parse(iso)
  return date ? exact.format(date) : iso
}

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
/** Beyond a week a date says more than "23 days ago" does. */
export const RELATIVE_WITHIN = 7 * DAY

/**
 * "3 minutes ago", "in 2 hours", "yesterday" for a time within a week of `now`, in the reader's
 * locale; null further off (or for no date), where the exact time reads better.
 */
export const relativeTime = (iso: string, now: number): string | null => {
  const date = parse(iso)
  if (!date) return null
  const diff = date.getTime() - now
  const distance = Math.abs(diff)
  if (distance >= RELATIVE_WITHIN) return null
  if (distance < MINUTE) return relative.format(0, 'second')
  if (distance < HOUR) return relative.format(Math.round(diff / MINUTE), 'minute')
  if (distance < DAY) return relative.format(Math.round(diff / HOUR), 'hour')
  return relative.format(Math.round(diff / DAY), 'day')
}

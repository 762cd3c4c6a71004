// The reader's own locale and time zone: these are their sign-ins, on their clock.
const format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

/** "12 Mar 2026, 14:05" in the reader's locale; the raw value when it is not a date. */
export const formatTime = (iso: string): string => {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : format.format(date)
}

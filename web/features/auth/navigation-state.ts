/// What pages hand each other through the router's history state (never anything secret).

const readString = (state: unknown, key: string): string | null => {
  if (typeof state !== 'object' || state === null || !(key in state)) return null
  const value: unknown = Reflect.get(state, key)
  return typeof value === 'string' ? value : null
}

/** A one-line message for the next page, e.g. "Your password has been reset". */
export const noticeFrom = (state: unknown): string | null => readString(state, 'notice')

/** The email address someone just used, to save them typing it again. */
export const emailFrom = (state: unknown): string | null => readString(state, 'email')

/** Where to go after signing in: only a path on this site, never another origin. */
export const returnPathFrom = (state: unknown): string => {
  const from = readString(state, 'from')
  return from?.startsWith('/') && !from.startsWith('//') ? from : '/account'
}

/** `/sign-in?add-account`: a signed-in person adds another account to this device. */
export const ADD_ACCOUNT_PARAM = 'add-account'
export const ADD_ACCOUNT_PATH = `/sign-in?${ADD_ACCOUNT_PARAM}`

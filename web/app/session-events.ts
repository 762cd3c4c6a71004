/// Who is signed in changed outside the store (a sign-in on a page without it): the store, when
/// it is loaded, drops what it cached about the previous person (see StoreBoundary).
const listeners = new Set<() => void>()

export const onSignedIn = (listener: () => void): (() => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export const signedIn = (): void => {
  for (const listener of listeners) listener()
}

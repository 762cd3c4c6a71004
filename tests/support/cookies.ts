/// A minimal cookie jar for tests that act as a browser: keeps what Set-Cookie says (honouring
/// Max-Age=0 as removal) and renders a Cookie header.

type SetCookieHeader = string | string[] | number | undefined

export type CookieJar = {
  store(setCookie: SetCookieHeader): void
  header(): string
  get(name: string): string | undefined
  attributesOf(name: string): string | undefined
}

export const cookieJar = (): CookieJar => {
  const values = new Map<string, string>()
  const attributes = new Map<string, string>()
  return {
    store(setCookie) {
      const lines = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [String(setCookie)]
      for (const line of lines) {
        const [pair = '', ...rest] = line.split(';')
        const eq = pair.indexOf('=')
        const name = pair.slice(0, eq).trim()
        const value = pair.slice(eq + 1).trim()
        attributes.set(name, rest.join(';').trim())
        if (/max-age=0\b/i.test(line) || value === '') values.delete(name)
        else values.set(name, value)
      }
    },
    header: () => [...values].map(([name, value]) => `${name}=${value}`).join('; '),
    get: (name) => values.get(name),
    attributesOf: (name) => attributes.get(name),
  }
}

/// Loads the `pg` driver, only when a PostgreSQL database is opened, and without the memory its
/// runtime check would cost.
///
/// When it loads, pg asks whether it runs in a Cloudflare Worker. On Node 20, which has no global
/// `navigator`, it does so by building a `Response`. That loads Node's whole fetch implementation
/// (undici), and the process then holds ~10 MB more that Tessera never uses unless it makes an
/// outgoing request (social sign-in). With `Response` hidden while pg loads, pg takes the answer it
/// would have reached anyway (Node's sockets), and `Response` and `fetch` stay lazily available.
/// The load is synchronous, so no other code can run while `Response` is hidden. Node 21 and later
/// have a `navigator`, and pg then never looks at `Response`.

import { createRequire } from 'node:module'

type Pg = typeof import('pg')

const requireFromHere = createRequire(import.meta.url)
let loaded: Pg | undefined

const withoutResponse = <T>(load: () => T): T => {
  const response = Object.getOwnPropertyDescriptor(globalThis, 'Response')
  if (!response?.configurable) return load()
  Object.defineProperty(globalThis, 'Response', { value: undefined, configurable: true, writable: true })
  try {
    return load()
  } finally {
    Object.defineProperty(globalThis, 'Response', response)
  }
}

export const loadPg = (): Pg => {
  if (loaded) return loaded
  const pg = withoutResponse(() => requireFromHere('pg') as Pg)
  // int8 as JavaScript numbers would lose precision; the code asks for text where it needs one.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value) => value)
  loaded = pg
  return pg
}

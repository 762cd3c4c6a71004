import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/// Every type the server's activity read model records, read from the declarations' source (the
/// portal may not import the server's code): a type declared with an `activity` that is neither
/// `null` nor `'forget'`, plus `user.signed-out`, the name a revocation by its own session takes in
/// the feed.
// Tests run from the project's root (jsdom gives this module no file URL).
const DOMAIN = join(process.cwd(), 'domain')

export const declaredActivityTypes = (): string[] => [
  ...readdirSync(DOMAIN, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.declarations.ts'))
    .flatMap((path) => {
      const source = readFileSync(join(DOMAIN, path), 'utf8')
      const keys = [...source.matchAll(/^ {2}'([a-z-]+\.[a-z-]+)': \{/gm)]
      return keys.flatMap((match, i) => {
        const block = source.slice(match.index, keys[i + 1]?.index ?? source.length)
        const activity = /\bactivity: (null|'forget'|\{)/.exec(block)?.[1]
        return activity === '{' ? [match[1] ?? ''] : []
      })
    }),
  'user.signed-out',
]

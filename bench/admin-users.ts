/// Issue 14's figure: admin/list-users searching a directory of 100,000 users on PostgreSQL. Signing
/// up that many over HTTP would take hours (scrypt), so the users are written straight into the
/// read model that list-users reads, in batches, with one password hash computed once and shared.
/// They have no events behind them: the database is a throwaway one, and nothing but list-users
/// reads them. PostgreSQL only, as the target is: PGlite belongs to the server process, so nobody
/// else may write to it while the server runs.
///
/// run.ts runs it as a scenario group (BENCH_ONLY=admin/list-users-email or -name): on PostgreSQL
/// `seedAdminDirectory(url)`, then `adminDirectoryScenarios(directory, timing)`.

import { randomUUID } from 'node:crypto'
import { openTesseraDatabase } from '../app/database.js'
import { hashPassword } from '../infra/crypto/password.js'
import type { NewUserRow } from '../projections/users/users.table.js'
import { BENCH_SERVER_KEY, SERVER_KEY_HEADER } from './api-keys.js'
import type { ScenarioSpec, Shot } from './load.js'

export const DIRECTORY_USERS = 100_000
const BATCH = 1_000
const PAGE = 20
/** Searches a scenario rotates over. */
const SEARCHES = 2_000

// 64 × 64 names: a full-name search matches some 24 people in 100,000, as a common name would.
const FIRST =
  'Ada Alan Alice Amir Ana Anders Aria Ben Bianca Carla Chen Chloe Dana David Elena Emil Eva Farah Felix Gita Hana Hugo Ines Ivan Jana Jonas Julia Kai Kamal Kenji Lara Leo Lina Luca Maya Mehmet Mia Nadia Nils Noah Olga Omar Paula Pedro Priya Rafael Rosa Sami Sara Sofia Tariq Tomas Uma Vera Victor Wei Yara Yusuf Zoe Zofia Ali Bruno Clara Dmitri'.split(
    ' ',
  )
const LAST =
  'Abbott Aguilar Andersen Bauer Becker Berg Costa Cruz Dahl Diaz Eriksen Fischer Garcia Gomez Haddad Hansen Ito Jensen Kaur Keller Khan Kim Kowalski Larsen Lee Lopez Martin Meyer Moreau Morales Nakamura Novak Okafor Olsen Park Patel Perez Petrov Quinn Reyes Rossi Sato Schmidt Silva Singh Smith Suzuki Tanaka Torres Novotny Vargas Weber Wagner Wong Yamada Young Zhang Ziegler Adler Brandt Castro Duarte Ferreira Gallo'.split(
    ' ',
  )
const DOMAINS = ['example.com', 'example.org', 'mail.example.net', 'corp.example']

const at = <T>(items: readonly T[], index: number): T => {
  const item = items[index % items.length]
  if (item === undefined) throw new Error('empty list')
  return item
}

/** The n-th person of the directory: names cycle through every pair, addresses are unique. */
const person = (n: number) => {
  const first = at(FIRST, n)
  const last = at(LAST, Math.floor(n / FIRST.length))
  const local = `${first}.${last}.${n}`.toLowerCase()
  return { name: `${first} ${last}`, email: `${local}@${at(DOMAINS, n)}`, local }
}

export type AdminDirectory = {
  size: number
  /** How many people bear each name (a name search must count them all). */
  nameCounts: ReadonlyMap<string, number>
}

/** Stands in for the directory before it is seeded, for the scenarios' names only. */
export const UNSEEDED_DIRECTORY: AdminDirectory = { size: DIRECTORY_USERS, nameCounts: new Map() }
/** No directory (PGlite): no scenarios. */
export const NO_DIRECTORY: AdminDirectory = { size: 0, nameCounts: new Map() }

/** Writes `size` users (and their credential accounts) into the read model at `databaseUrl`. */
export const seedAdminDirectory = async (
  databaseUrl: string,
  size: number = DIRECTORY_USERS,
): Promise<AdminDirectory> => {
  const database = await openTesseraDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 2 })
  try {
    const passwordHash = await hashPassword('bench-directory-password')
    const started = Date.now() - size * 1000
    const nameCounts = new Map<string, number>()
    for (let from = 0; from < size; from += BATCH) {
      const users: NewUserRow[] = []
      for (let n = from; n < Math.min(from + BATCH, size); n++) {
        const { name, email } = person(n)
        nameCounts.set(name, (nameCounts.get(name) ?? 0) + 1)
        const createdAt = new Date(started + n * 1000)
        users.push({
          id: randomUUID(),
          email,
          name,
          image: null,
          email_verified: n % 3 !== 0,
          username: null,
          display_username: null,
          role: null,
          banned: false,
          ban_reason: null,
          ban_expires: null,
          created_at: createdAt,
          updated_at: createdAt,
        })
      }
      await database.db.transaction().execute(async (trx) => {
        await trx.insertInto('users').values(users).execute()
        await trx
          .insertInto('accounts')
          .values(
            users.map((user) => ({
              id: randomUUID(),
              user_id: user.id,
              provider_id: 'credential',
              account_id: user.id,
              password: passwordHash,
              created_at: user.created_at,
              updated_at: user.updated_at,
            })),
          )
          .execute()
      })
    }
    return { size, nameCounts }
  } finally {
    await database.close()
  }
}

const parseJson = (body: string): unknown => {
  try {
    return JSON.parse(body)
  } catch {
    return undefined
  }
}

type Page = { users: { email: string; name: string }[]; total: number }

const pageOf = (body: string): Page | null => {
  const value = parseJson(body)
  if (typeof value !== 'object' || value === null) return null
  const { users, total } = value as Record<string, unknown>
  if (!Array.isArray(users) || typeof total !== 'number') return null
  const valid = users.every(
    (user) => typeof user === 'object' && user !== null && 'email' in user && 'name' in user,
  )
  return valid ? { users: users as Page['users'], total } : null
}

const listUsers = (field: 'email' | 'name', value: string, isCorrect: (page: Page) => boolean): Shot => ({
  kind: 'admin/list-users',
  method: 'GET',
  path: `/api/auth/admin/list-users?searchField=${field}&searchValue=${encodeURIComponent(value)}&limit=${PAGE}`,
  headers: { [SERVER_KEY_HEADER]: BENCH_SERVER_KEY },
  isCorrect: (body) => {
    const page = pageOf(body)
    return page !== null && isCorrect(page)
  },
})

/** People spread over the whole directory, so searches do not hit one cached corner. */
const sample = (directory: AdminDirectory) =>
  Array.from({ length: Math.min(SEARCHES, directory.size) }, (_, i) =>
    person(Math.floor((i * directory.size) / Math.min(SEARCHES, directory.size))),
  )

/** How many people a contains-search for `part` finds ("Ana Kim" also finds "Dana Kim"). */
const matchingNames = (directory: AdminDirectory, part: string) => {
  let total = 0
  for (const [name, count] of directory.nameCounts) if (name.toLowerCase().includes(part)) total += count
  return total
}

const rotating = <T>(items: readonly T[], shot: (item: T) => Shot) => {
  let next = 0
  return (): Shot => shot(at(items, next++))
}

/**
 * An operator's searches: part of an address in capitals (right when that person is on the page),
 * and a full name (right when the total counts everyone whose name holds it, and the page shows only
 * such people).
 */
export const adminDirectoryScenarios = (
  directory: AdminDirectory,
  timing: Pick<ScenarioSpec, 'durationSeconds' | 'warmupSeconds'>,
): ScenarioSpec[] => {
  if (directory.size === 0) return []
  const people = sample(directory)
  const label = `${Math.round(directory.size / 1000)}k`
  return [
    {
      name: `admin/list-users email search ${label} c16`,
      connections: 16,
      ...timing,
      next: rotating(people, ({ email, local }) =>
        listUsers('email', local.slice(local.indexOf('.') + 1).toUpperCase(), (page) =>
          page.users.some((user) => user.email === email),
        ),
      ),
    },
    {
      name: `admin/list-users name search ${label} c16`,
      connections: 16,
      ...timing,
      next: rotating(people, ({ name }) => {
        const part = name.toLowerCase()
        return listUsers(
          'name',
          name,
          (page) =>
            page.total === matchingNames(directory, part) &&
            page.users.length === Math.min(PAGE, page.total) &&
            page.users.every((user) => user.name.toLowerCase().includes(part)),
        )
      }),
    },
  ]
}

/// Erasure through the real app: a person signs up, signs in and deletes their account (which
/// destroys their data key); the read models are then rebuilt from the log, and nothing anywhere in
/// the database still says who they were.

import { type Kysely, sql } from 'kysely'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { subjectOf } from '../../domain/events.js'
import { userStream } from '../../domain/user/user.js'
import { readModelProjections } from '../../projections/all.js'
import { replay } from '../../projections/runner/projector.js'
import { browserFor } from '../support/browser.js'
import { describeEachDatabase } from '../support/databases.js'
import { tablesOutsideTheLog } from '../support/table-snapshot.js'
import { startTessera, type TestTessera } from '../support/tessera.js'

const EMAIL = 'grace@example.com'
const NAME = 'Grace Hopper'
const PASSWORD = 'cobol-compiler-1959'
const UA = 'GraceBrowser/1.0 (Harvard Mark I)'
const USERNAME = 'Amazing_Grace'
const HEADERS = { 'user-agent': UA }
const PERSONAL = [EMAIL, NAME, UA, USERNAME, USERNAME.toLowerCase()]

// biome-ignore lint/suspicious/noExplicitAny: the scan reads every table, typed or not
type AnyDb = Kysely<any>

/** Each table's rows as text, so a value is found whichever column (or jsonb key) holds it. */
const tableTexts = async (db: AnyDb, tables: readonly string[]): Promise<Record<string, string>> => {
  const texts: Record<string, string> = {}
  for (const table of tables) {
    const { rows } = await sql<{ text: string }>`select t::text as text from ${sql.table(table)} t`.execute(
      db,
    )
    texts[table] = rows.map((row) => row.text).join('\n')
  }
  return texts
}

/** The tables (by name) in which any of the values appear. */
const tablesHolding = (texts: Record<string, string>, values: readonly string[]): string[] =>
  Object.entries(texts)
    .filter(([, text]) => values.some((value) => text.includes(value)))
    .map(([table]) => table)

describeEachDatabase('erasing a deleted user', (_fresh, kind) => {
  let tessera: TestTessera
  beforeEach(async () => {
    tessera = await startTessera({ kind, features: { user: { deleteUser: { immediate: true } } } })
  })
  afterEach(() => tessera.cleanup())

  it('leaves no readable personal data in the log, the claims or any rebuilt read model', async () => {
    const grace = browserFor(tessera, HEADERS)
    const signUp = await grace.post('/sign-up/email', {
      name: NAME,
      email: EMAIL,
      password: PASSWORD,
      username: USERNAME,
    })
    expect(signUp.status).toBe(200)
    const userId = (signUp.json as { user: { id: string } }).user.id
    expect((await grace.post('/sign-in/email', { email: EMAIL, password: PASSWORD })).status).toBe(200)

    const db: AnyDb = tessera.database.db
    const logTables = ['tessera_events', 'tessera_unique_claims', 'tessera_data_keys']
    const readModels = await tablesOutsideTheLog(db)
    expect(readModels).toEqual(expect.arrayContaining(['users', 'sessions']))
    // The scan finds what is there: the live read models show the person; the log never does.
    expect(tablesHolding(await tableTexts(db, readModels), PERSONAL)).toEqual(
      expect.arrayContaining(['users', 'sessions']),
    )
    expect(tablesHolding(await tableTexts(db, logTables), PERSONAL)).toEqual([])

    const deleted = await grace.post('/delete-user', { password: PASSWORD })
    expect(deleted.json).toEqual({ success: true, message: 'User deleted' })
    expect(tablesHolding(await tableTexts(db, [...logTables, ...readModels]), PERSONAL)).toEqual([])

    await tessera.projector.stop()
    await replay({ db: tessera.database.db, store: tessera.store, projections: readModelProjections })

    const texts = await tableTexts(db, [...logTables, ...readModels])
    expect(tablesHolding(texts, PERSONAL)).toEqual([])
    expect(texts.users).toBe('')
    expect(texts.sessions).toBe('')
    // The log still tells what happened, but no longer to whom.
    const events = await tessera.store.readStream(userStream(userId))
    expect(events.at(0)?.type).toBe('user.registered')
    expect(events.map((event) => event.type)).toContain('user.deleted')
    // Everything under the user's key; a deletion notice is sealed under a key of its own, which
    // its handling erases.
    expect(
      events.filter((event) => subjectOf(event) === userId).every((event) => event.metadata.erased),
    ).toBe(true)
    expect(events[0]?.data).toMatchObject({ userId, email: null, name: null })

    expect(events[0]?.data).toMatchObject({ username: null, displayUsername: null })

    // The address and the username are free again: the hashed claims were given up like plain ones.
    await tessera.projector.start()
    const free = await browserFor(tessera).post('/is-username-available', { username: USERNAME })
    expect(free.json).toEqual({ available: true })
    const again = await browserFor(tessera).post('/sign-up/email', {
      name: 'G. Hopper',
      email: EMAIL,
      password: PASSWORD,
      username: USERNAME,
    })
    expect(again.status).toBe(200)
  })
})

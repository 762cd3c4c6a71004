/// Mails that will never go out (the server rejected them for good, or the event could not be made
/// into a mail): one row per event, so an operator can see what was lost and why.

import type { Kysely, Selectable } from 'kysely'
import type { Database } from '../../database.js'

export type MailDeadLettersTable = {
  event_id: string
  error: string
  at: Date
}

export type MailDeadLetterRow = Selectable<MailDeadLettersTable>

type WithDeadLetters = Database & { tessera_mail_dead_letters: MailDeadLettersTable }

export const mailDeadLettersMigration = {
  // biome-ignore lint/suspicious/noExplicitAny: migrations are written against an untyped schema
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('tessera_mail_dead_letters')
      .addColumn('event_id', 'text', (c) => c.primaryKey())
      .addColumn('error', 'text', (c) => c.notNull())
      .addColumn('at', 'timestamptz', (c) => c.notNull())
      .execute()
  },
}

const withDeadLetters = (db: Kysely<Database>): Kysely<WithDeadLetters> =>
  db.withTables<{ tessera_mail_dead_letters: MailDeadLettersTable }>()

/** Idempotent: a crash before the checkpoint moved makes the same event fail, and land here, again. */
export const recordDeadLetter = async (
  db: Kysely<Database>,
  letter: { eventId: string; error: string; at: Date },
): Promise<void> => {
  await withDeadLetters(db)
    .insertInto('tessera_mail_dead_letters')
    .values({ event_id: letter.eventId, error: letter.error.slice(0, 2000), at: letter.at })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .execute()
}

export const listDeadLetters = (db: Kysely<Database>): Promise<MailDeadLetterRow[]> =>
  withDeadLetters(db).selectFrom('tessera_mail_dead_letters').selectAll().orderBy('at').execute()

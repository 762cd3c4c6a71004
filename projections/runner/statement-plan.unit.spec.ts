import { describe, expect, it } from 'vitest'
import { inlineParameters } from '../../infra/db/sql-literals.js'
import {
  classify,
  type Deferred,
  planInlined,
  planStatements,
  READS_NONE_OF_ITS_SHAPE,
  wavesOf,
} from './statement-plan.js'

const insertUser = (id: string, event: number) =>
  classify('insert into "users" ("id", "email") values ($1, $2)', [id, `${id}@x`], event) as Deferred
const insertSession = (id: string, event: number) =>
  classify('insert into "sessions" ("id", "user_id") values ($1, $2)', [id, 'u'], event) as Deferred
const deleteSession = (id: string, event: number) =>
  classify('delete from "sessions" where "id" = $1', [id], event) as Deferred
const activityIfUser = (id: string, event: number) =>
  classify(
    `insert into activity (id, user_id) select entry.id, entry.user_id
     from (values ($1::text, $2::text)) as entry (id, user_id)
     where exists (select from users where users.id = entry.user_id)`,
    [id, 'u'],
    event,
  ) as Deferred

describe('classify', () => {
  it('holds back inserts, updates and deletes, and names what they write and read', () => {
    expect(insertUser('a', 0)).toMatchObject({ kind: 'insert', table: 'users', reads: new Set() })
    expect(deleteSession('s', 0)).toMatchObject({
      kind: 'change',
      table: 'sessions',
      reads: new Set(['sessions']),
    })
    expect(activityIfUser('e', 0)).toMatchObject({
      kind: 'insert',
      table: 'activity',
      reads: new Set(['users']),
    })
    expect(classify('update "users" set "name" = $1 where "id" = $2', ['n', 'a'], 0)).toMatchObject({
      kind: 'change',
      table: 'users',
    })
  })

  it('runs at once what must answer: reads, RETURNING, anything else', () => {
    expect(classify('select "id" from "users" where "id" = $1', ['a'], 0)).toBeNull()
    expect(classify('insert into "users" ("id") values ($1) returning "id"', ['a'], 0)).toBeNull()
    expect(classify('with x as (delete from users returning id) select 1', [], 0)).toBeNull()
    expect(classify('select pg_advisory_xact_lock(1)', [], 0)).toBeNull()
  })

  it('merges only a statement whose parameters all sit in one VALUES tuple', () => {
    expect(insertUser('a', 0).merge?.row).toBe('($1, $2)')
    expect(activityIfUser('e', 0).merge?.row).toBe('($1::text, $2::text)')
    const setLater = classify(
      'insert into "t" ("a") values ($1) on conflict ("a") do update set "b" = $2',
      [1, 2],
      0,
    )
    expect(setLater?.merge).toBeNull()
  })
})

describe('planStatements', () => {
  it('merges the rows of one shape into one statement with renumbered parameters', () => {
    const plan = planStatements([
      insertUser('a', 0),
      insertSession('s1', 0),
      insertUser('b', 1),
      insertSession('s2', 1),
    ])
    expect(plan).toEqual([
      {
        sql: 'insert into "users" ("id", "email") values ($1, $2), ($3, $4)',
        parameters: ['a', 'a@x', 'b', 'b@x'],
      },
      {
        sql: 'insert into "sessions" ("id", "user_id") values ($1, $2), ($3, $4)',
        parameters: ['s1', 'u', 's2', 'u'],
      },
    ])
  })

  it('keeps an insert after an earlier delete of its table, and a reader after the writes it reads', () => {
    const writes = [
      insertSession('s1', 0),
      deleteSession('s1', 1),
      insertSession('s2', 2),
      insertUser('a', 2),
      activityIfUser('e', 2),
    ]
    expect(wavesOf(writes)).toEqual([0, 1, 2, 0, 1])
    const plan = planStatements(writes).map((statement) => statement.sql.split(' ').slice(0, 3).join(' '))
    expect(plan).toEqual([
      'insert into "sessions"',
      'insert into "users"',
      'delete from "sessions"',
      'insert into activity',
      'insert into "sessions"',
    ])
  })

  it('lets a later insert go ahead of an earlier statement that only read its table, but not within one event', () => {
    // Event 0 reads users (its entry), event 1 inserts a user: the insert joins event 0's wave.
    expect(wavesOf([insertUser('a', 0), activityIfUser('e', 0), insertUser('b', 1)])).toEqual([0, 1, 0])
    // An event that deletes a session and then inserts one keeps its own order.
    expect(wavesOf([deleteSession('s', 0), insertSession('s', 0)])).toEqual([0, 1])
  })

  it('lets inserts that vouch they read none of their own rows share a wave, after the table’s other writes', () => {
    // A revocation's entry: it reads the sign-in entries of `activity`, never another revocation's.
    const revocation = (id: string, event: number, vouched = true) =>
      classify(
        `insert into activity (id, user_id, type)
         ${vouched ? READS_NONE_OF_ITS_SHAPE : ''}select entry.id, entry.user_id, entry.type
         from (values ($1::text, $2::text, $3::text)) as entry (id, user_id, type)
         where exists (select from activity started where started.user_id = entry.user_id
                       and started.type = 'session.started')`,
        [id, 'u', 'session.revoked'],
        event,
      ) as Deferred
    const forget = classify('delete from activity where "user_id" = $1', ['u'], 4) as Deferred
    const writes = [
      activityIfUser('e1', 0),
      revocation('r1', 1),
      activityIfUser('e2', 2),
      revocation('r2', 3),
      forget,
      revocation('r3', 5),
    ]
    expect(wavesOf(writes)).toEqual([0, 1, 0, 1, 2, 3])
    const plan = planStatements(writes)
    expect(plan.map((statement) => statement.parameters.length)).toEqual([4, 6, 1, 3])
    expect(plan[1]?.parameters).toEqual(['r1', 'u', 'session.revoked', 'r2', 'u', 'session.revoked'])
    // Without the text's word for it, each revocation waits for the one before.
    const unvouched = [activityIfUser('e1', 0), revocation('r1', 1, false), revocation('r2', 2, false)]
    expect(wavesOf(unvouched)).toEqual([0, 1, 2])
  })

  it('keeps differently shaped inserts into one table in order when either resolves conflicts', () => {
    const upsert = classify('insert into "t" ("a") values ($1) on conflict do nothing', [1], 0) as Deferred
    const plain = classify('insert into "t" ("a", "b") values ($1, $2)', [1, 2], 1) as Deferred
    expect(wavesOf([upsert, plain])).toEqual([0, 1])
  })

  it('splits a merge that would pass PostgreSQL’s limit of parameters', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => insertUser(`u${i}`, i))
    const plan = planStatements(many)
    expect(plan.length).toBe(2)
    expect(plan.reduce((sum, statement) => sum + statement.parameters.length, 0)).toBe(40_000)
    // 20,000 writes: seconds on a machine shared by many processes.
  }, 30_000)

  it('writes the values into the plan as inlining each planned statement would', () => {
    const pair = (a: string, b: string, event: number) =>
      classify('delete from "t" where "a" = $1 and "b" = $2', [a, b], event) as Deferred
    const writes = [
      insertUser("o'brien", 0),
      insertSession('s1', 0),
      deleteSession('s1', 1),
      insertUser('back\\slash', 1),
      activityIfUser('e1', 1),
      deleteSession('s2', 2),
      pair('x', '1', 2),
      pair('y', null as unknown as string, 3),
      activityIfUser('e2', 3),
      ...Array.from({ length: 16_000 }, (_, i) => insertUser(`u${i}`, 4 + i)),
    ]
    const inlined = planStatements(writes).map(({ sql, parameters }) => inlineParameters(sql, parameters))
    expect(inlined.filter((text) => text.startsWith(`insert into "users"`))).toHaveLength(2)
    expect(planInlined(writes)).toEqual(inlined)
  }, 30_000)

  it('writes a long list of rows or keys, joined piece by piece, as inlining each planned statement would', () => {
    const pair = (a: string, b: string, event: number) =>
      classify('delete from "t" where "a" = $1 and "b" = $2', [a, b], event) as Deferred
    const writes = [
      ...Array.from({ length: 5_000 }, (_, i) => deleteSession(`session-${i}`, i)),
      ...Array.from({ length: 5_000 }, (_, i) => pair(`a${i}`, i % 7 ? `b${i}` : "it's", 5_000 + i)),
      ...Array.from({ length: 5_000 }, (_, i) => insertUser(i % 5 ? `u${i}` : `back\\slash${i}`, 10_000 + i)),
    ]
    const planned = planStatements(writes)
    expect(planned).toHaveLength(3)
    expect(planInlined(writes)).toEqual(
      planned.map(({ sql, parameters }) => inlineParameters(sql, parameters)),
    )
    // 15,000 writes: seconds on a machine shared by many processes.
  }, 30_000)

  it('merges keyed deletes of one table across events unless a write or a read of it comes between', () => {
    const plan = planStatements([insertSession('s1', 0), deleteSession('s1', 1), deleteSession('s2', 2)])
    expect(plan).toEqual([
      { sql: 'insert into "sessions" ("id", "user_id") values ($1, $2)', parameters: ['s1', 'u'] },
      { sql: 'delete from "sessions" where "id" in ($1, $2)', parameters: ['s1', 's2'] },
    ])
    // The insert between them keeps the second delete after it (it may remove that very row).
    expect(wavesOf([deleteSession('a', 0), insertSession('b', 1), deleteSession('b', 2)])).toEqual([0, 1, 2])
  })

  it('merges deletes keyed by several columns as row values, and keys only plain equalities', () => {
    const pair = (a: string, b: string, event: number) =>
      classify('delete from "t" where "a" = $1 and "b" = $2', [a, b], event) as Deferred
    expect(planStatements([pair('x', '1', 0), pair('y', '2', 1)])).toEqual([
      { sql: 'delete from "t" where ("a", "b") in (($1, $2), ($3, $4))', parameters: ['x', '1', 'y', '2'] },
    ])
    expect(classify('delete from "t" where "a" = $1 and "b" < $2', ['x', 1], 0)?.keyed).toBeNull()
    expect(classify('delete from t where a in (select a from u where b = $1)', ['x'], 0)?.keyed).toBeNull()
  })

  it('merges a batch’s last-seen upserts into one list that sends one person once, after a deletion of theirs', () => {
    // The users projection's statement (users/last-seen.ts): grouped by person, so that one person
    // twice in the list is one row, their latest, as the upsert can touch a row only once.
    const upsert = `
      insert into user_last_seen (user_id, last_seen_at)
      select user_id, max(last_seen_at) from (values ($1::text, $2::timestamptz)) as seen (user_id, last_seen_at)
      group by user_id
      on conflict (user_id) do update set last_seen_at = excluded.last_seen_at
      where user_last_seen.last_seen_at < excluded.last_seen_at`
    const seen = (id: string, at: number, event: number) => classify(upsert, [id, at], event) as Deferred
    expect(seen('a', 1, 0)).toMatchObject({ kind: 'insert', onConflict: true, reads: new Set() })
    const plan = planStatements([seen('a', 1, 0), seen('b', 2, 1), seen('a', 3, 2)])
    expect(plan).toHaveLength(1)
    expect(plan[0]?.sql).toContain(
      'values ($1::text, $2::timestamptz), ($3::text, $4::timestamptz), ($5::text, $6::timestamptz))',
    )
    expect(plan[0]?.parameters).toEqual(['a', 1, 'b', 2, 'a', 3])
    const forget = classify('delete from "user_last_seen" where "user_id" = $1', ['a'], 3) as Deferred
    expect(
      wavesOf([seen('a', 1, 0), forget, seen('a', 2, 4)], new Map([['user_last_seen', [['user_id']]]])),
    ).toEqual([0, 1, 2])
  })

  describe('updates of one row, named by a unique key', () => {
    const keys = new Map([
      ['users', [['id'], ['email']]],
      ['sessions', [['id']]],
    ])
    const seen = (id: string, at: number, event: number) =>
      classify(
        'update "users" set "last_seen_at" = $1 where "id" = $2 and ("last_seen_at" is null or "last_seen_at" < $3)',
        [at, id, at],
        event,
      ) as Deferred
    const revokeAll = (userId: string, event: number) =>
      classify('update "sessions" set "revoked" = true where "user_id" = $1', [userId], event) as Deferred
    const upsertUser = (id: string, event: number) =>
      classify(
        'insert into "users" ("id") values ($1) on conflict ("id") do nothing',
        [id],
        event,
      ) as Deferred

    it('lets later plain inserts go ahead of them, so one shape still goes as one statement', () => {
      const writes = [
        insertUser('a', 0),
        seen('a', 1, 1),
        insertUser('b', 2),
        seen('b', 2, 3),
        insertUser('c', 4),
      ]
      expect(wavesOf(writes, keys)).toEqual([0, 1, 0, 1, 0])
      const plan = planStatements(writes, keys).map((statement) =>
        statement.sql.split(' ').slice(0, 3).join(' '),
      )
      expect(plan).toEqual(['insert into "users"', 'update "users" set', 'update "users" set'])
      // Without the keys, each insert waits for the update before it (as before).
      expect(wavesOf(writes)).toEqual([0, 1, 2, 3, 4])
    })

    it('keeps two updates of one row in order, and an update after what its own event inserted', () => {
      expect(wavesOf([insertUser('a', 0), seen('a', 1, 1), seen('a', 2, 2)], keys)).toEqual([0, 1, 2])
      expect(wavesOf([insertUser('b', 0), seen('a', 1, 1), insertUser('a', 1)], keys)).toEqual([0, 1, 2])
    })

    it('keeps in order what may see the row: a reader, an upsert, a delete, an update by another key', () => {
      const readsSeen = classify(
        'insert into "log" ("at") select "last_seen_at" from "users" where "id" = $1',
        ['a'],
        1,
      ) as Deferred
      expect(wavesOf([seen('a', 1, 0), readsSeen], keys)).toEqual([0, 1])
      const readsWhole = classify(
        'insert into "log" ("n") select count(*) from "users" where "id" = $1',
        ['a'],
        1,
      ) as Deferred
      expect(wavesOf([seen('a', 1, 0), readsWhole], keys)).toEqual([0, 1])
      const asValue = classify(
        'insert into "log" ("row") select to_jsonb(u) from "users" u where u.id = $1',
        ['a'],
        1,
      ) as Deferred
      expect(wavesOf([seen('a', 1, 0), asValue], keys)).toEqual([0, 1])
      // The other way round too: the update waits for a reader of what it sets.
      expect(wavesOf([readsSeen, seen('a', 1, 2)], keys)).toEqual([0, 1])
      expect(wavesOf([seen('a', 1, 0), upsertUser('b', 1)], keys)).toEqual([0, 1])
      const byEmail = classify(
        'update "users" set "name" = $1 where "email" = $2',
        ['n', 'a@x'],
        1,
      ) as Deferred
      expect(wavesOf([seen('a', 1, 0), byEmail], keys)).toEqual([0, 1])
      const deleteUser = classify('delete from "users" where "id" = $1', ['a'], 1) as Deferred
      // The delete waits for the update; another row's update need not wait for the delete of one row.
      expect(wavesOf([seen('a', 1, 0), deleteUser, seen('b', 1, 2)], keys)).toEqual([0, 1, 0])
    })

    it('lets a reader that names none of the columns an update sets pass it, both ways', () => {
      // The entry checks only that its user exists: last_seen_at cannot change that.
      expect(wavesOf([seen('a', 1, 0), activityIfUser('e', 1), seen('b', 1, 2)], keys)).toEqual([0, 0, 0])
      expect(wavesOf([activityIfUser('e', 0), seen('a', 1, 1)], keys)).toEqual([0, 0])
      // An update of a key column changes which rows a key finds: every reader stays in order.
      const rename = classify('update "users" set "email" = $1 where "id" = $2', ['b@x', 'a'], 0) as Deferred
      expect(wavesOf([rename, activityIfUser('e', 1)], keys)).toEqual([0, 1])
    })

    it('sends one wave’s updates of one shape one statement each, a row’s second update after its first', () => {
      const update =
        'update "users" set "last_seen_at" = $1 where "id" = $2 and ("last_seen_at" is null or "last_seen_at" < $3)'
      expect(planStatements([seen('a', 1, 0), seen('b', 2, 1), seen('a', 3, 2)], keys)).toEqual([
        { sql: update, parameters: [1, 'a', 1] },
        { sql: update, parameters: [2, 'b', 2] },
        { sql: update, parameters: [3, 'a', 3] },
      ])
    })

    it('merges one wave’s updates of one text by keys alone into one statement, a row’s second update after it', () => {
      const setOrganization = (id: string, organization: string | null, event: number) =>
        classify(
          'update "sessions" set "active_organization_id" = $1, "active_team_id" = $2, "revoked" = false where "id" = $3',
          [organization, null, id],
          event,
        ) as Deferred
      const writes = [
        setOrganization('a', 'o1', 0),
        setOrganization('b', 'o2', 1),
        setOrganization('a', 'o3', 2),
      ]
      const merged =
        'update "sessions" set "active_organization_id" = case "id" when $1 then $3 when $2 then $4 else "active_organization_id" end, ' +
        '"active_team_id" = case "id" when $1 then $5 when $2 then $6 else "active_team_id" end, "revoked" = false where "id" in ($1, $2)'
      expect(planStatements(writes, keys)).toEqual([
        { sql: merged, parameters: ['a', 'b', 'o1', 'o2', null, null] },
        { sql: writes[2]?.sql, parameters: ['o3', null, 'a'] },
      ])
      expect(planInlined(writes, keys)).toEqual([
        'update "sessions" set "active_organization_id" = case "id" when \'a\' then \'o1\' when \'b\' then \'o2\' else "active_organization_id" end, ' +
          '"active_team_id" = case "id" when \'a\' then null when \'b\' then null else "active_team_id" end, "revoked" = false where "id" in (\'a\', \'b\')',
        inlineParameters(writes[2]?.sql as string, ['o3', null, 'a']),
      ])
      // By several keys: each row's values by all of its keys.
      const byTwo = (id: string, name: string) =>
        classify(
          'update "users" set "name" = $1 where "id" = $2 and "email" = $3',
          [name, id, `${id}@x`],
          0,
        ) as Deferred
      expect(planInlined([byTwo('a', 'A'), byTwo('b', 'B')], keys)).toEqual([
        'update "users" set "name" = case when "id" = \'a\' and "email" = \'a@x\' then \'A\' when "id" = \'b\' and "email" = \'b@x\' then \'B\' else "name" end ' +
          "where (\"id\", \"email\") in (('a', 'a@x'), ('b', 'b@x'))",
      ])
    })

    it('lets a later plain insert go ahead of a delete of one row by a unique key, not of other deletes', () => {
      expect(wavesOf([insertSession('a', 0), deleteSession('a', 1), insertSession('b', 2)], keys)).toEqual([
        0, 1, 0,
      ])
      const byUser = classify('delete from "sessions" where "user_id" = $1', ['u'], 1) as Deferred
      expect(wavesOf([insertSession('a', 0), byUser, insertSession('b', 2)], keys)).toEqual([0, 1, 2])
      // Sign-in, its organization, sign-out, and the next person's: the updates share a wave, so do the deletes.
      const setOrganization = (id: string, event: number) =>
        classify(
          'update "sessions" set "active_organization_id" = $1 where "id" = $2',
          ['o', id],
          event,
        ) as Deferred
      const twoLives = [0, 3].flatMap((at) => [
        insertSession(`s${at}`, at),
        setOrganization(`s${at}`, at + 1),
        deleteSession(`s${at}`, at + 2),
      ])
      expect(wavesOf(twoLives, keys)).toEqual([0, 1, 2, 0, 1, 2])
      // A delete of many rows stays before a later update, which may be of one of them.
      expect(wavesOf([byUser, setOrganization('a', 2)], keys)).toEqual([0, 1])
    })

    it('treats an update by a column that is no unique key as any other change', () => {
      expect(wavesOf([revokeAll('u', 0), insertSession('s', 1)], keys)).toEqual([0, 1])
      expect(
        classify('update "users" set "a" = (select 1 from "t") where "id" = $1', ['a'], 0)?.updateKey,
      ).toBeNull()
    })
  })
})

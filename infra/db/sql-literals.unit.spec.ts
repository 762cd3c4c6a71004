import { createRequire } from 'node:module'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { inlineParameters, sqlLiteral } from './sql-literals.js'

const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as {
  prepareValue: (value: unknown) => string
}
/** What node-postgres would send for `value`, as a literal. */
const pgLiteral = (value: unknown) =>
  value === null || value === undefined ? 'null' : pg.escapeLiteral(prepareValue(value))

describe('sqlLiteral', () => {
  it('quotes every value as node-postgres would send it, escaping quotes and backslashes', () => {
    expect(sqlLiteral(null)).toBe('null')
    expect(sqlLiteral(undefined)).toBe('null')
    expect(sqlLiteral("it's")).toBe("'it''s'")
    expect(sqlLiteral('a\\b')).toBe(" E'a\\\\b'")
    expect(sqlLiteral(12)).toBe("'12'")
    expect(sqlLiteral(12n)).toBe("'12'")
    expect(sqlLiteral(true)).toBe("'true'")
    expect(sqlLiteral({ a: "x'" })).toBe(`'{"a":"x''"}'`)
    expect(sqlLiteral(Buffer.from([1, 255]))).toBe(" E'\\\\x01ff'")
  })

  it('quotes a string exactly as node-postgres’s escapeLiteral does', () => {
    for (const text of ['', 'plain', "'", "a'b''c", '\\', 'a\\b\\', "it's a\\path", 'é☃\u{1f600}', "\\'"])
      expect(sqlLiteral(text)).toBe(pg.escapeLiteral(text))
  })
})

describe('sqlLiteral of a date', () => {
  const zone = process.env.TZ
  afterEach(() => {
    pg.defaults.parseInputDatesAsUTC = false
    if (zone === undefined) delete process.env.TZ
    else process.env.TZ = zone
  })

  it('writes it as node-postgres does, the same instant again under another zone or pg’s UTC setting', () => {
    const at = new Date('2026-07-01T12:34:56.789Z')
    process.env.TZ = 'America/New_York'
    expect(sqlLiteral(at)).toBe("'2026-07-01T08:34:56.789-04:00'")
    expect(sqlLiteral(new Date(at))).toBe(pgLiteral(at))
    pg.defaults.parseInputDatesAsUTC = true
    expect(sqlLiteral(at)).toBe("'2026-07-01T12:34:56.789+00:00'")
    pg.defaults.parseInputDatesAsUTC = false
    process.env.TZ = 'Asia/Kolkata'
    expect(sqlLiteral(at)).toBe("'2026-07-01T18:04:56.789+05:30'")
    for (const date of [new Date(0), new Date('0001-01-01T00:00:00Z'), new Date(-62198755200000), at])
      expect(sqlLiteral(date)).toBe(pgLiteral(date))
  })
})

describe('inlineParameters', () => {
  it('writes each value as its own literal, plain ones beside escaped ones, nulls and dates', () => {
    const values = [
      'plain',
      "it's",
      'a\\b',
      null,
      new Date('2026-01-02T03:04:05.006Z'),
      7,
      true,
      '',
      { k: 'v' },
    ]
    const text = 'f($1,$2) $3$4 ($5, $6)'
    for (const a of values)
      for (const b of values)
        for (const c of values) {
          const parameters = [a, b, c, b, a, c]
          const expected = text.replace(/\$(\d)/g, (_, n) => pgLiteral(parameters[Number(n) - 1]))
          expect(inlineParameters(text, parameters)).toBe(expected)
        }
  })

  it('replaces each $n, and leaves quoted text alone', () => {
    expect(inlineParameters(`select $1, '$2', "$3", $10`, ['a', 'b', 'c', 4, 5, 6, 7, 8, 9, 'j'])).toBe(
      `select 'a', '$2', "$3", 'j'`,
    )
  })

  it('inlines the same text again with other parameters', () => {
    const text = `insert into t (a, b) values ($1, $2) on conflict (a) do update set b = $2`
    expect(inlineParameters(text, ['x', 1])).toBe(
      `insert into t (a, b) values ('x', '1') on conflict (a) do update set b = '1'`,
    )
    expect(inlineParameters(text, ["y'", null])).toBe(
      `insert into t (a, b) values ('y''', null) on conflict (a) do update set b = null`,
    )
  })

  it('refuses an unterminated quote', () => {
    expect(() => inlineParameters(`select 'open, $1`, ['a'])).toThrow(/unterminated quote/)
  })

  it('refuses a $n without a parameter', () => {
    expect(() => inlineParameters('select $2', ['a'])).toThrow(/no parameter for \$2/)
  })
})

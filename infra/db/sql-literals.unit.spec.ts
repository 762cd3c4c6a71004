import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { inlineParameters, sqlLiteral } from './sql-literals.js'

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

describe('inlineParameters', () => {
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

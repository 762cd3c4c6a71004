import { describe, expect, it } from 'vitest'
import { ConfigError } from './config-error.js'
import { parseDotenv } from './dotenv.js'

describe('.env parsing', () => {
  it('reads assignments, comments, export prefixes and quotes', () => {
    const text = [
      '# a comment',
      '',
      'PORT=4000',
      '  export HOST = 0.0.0.0  ',
      'MAIL_FROM="Tessera <no-reply@example.com>" # trailing comment',
      "AUTH_SECRET='literal $HOME \\n # not a comment'",
      'URL=http://x/#fragment-kept',
      'SPACED=a value # comment',
      'EMPTY=',
      'ESCAPED="line1\\nline2 \\"quoted\\" \\\\"',
    ].join('\r\n')
    expect(parseDotenv(text)).toEqual({
      PORT: '4000',
      HOST: '0.0.0.0',
      MAIL_FROM: 'Tessera <no-reply@example.com>',
      AUTH_SECRET: 'literal $HOME \\n # not a comment',
      URL: 'http://x/#fragment-kept',
      SPACED: 'a value',
      EMPTY: '',
      ESCAPED: 'line1\nline2 "quoted" \\',
    })
  })

  it('lets a double-quoted value span lines', () => {
    expect(parseDotenv('KEY="-----BEGIN-----\nabc\n-----END-----"\nNEXT=1')).toEqual({
      KEY: '-----BEGIN-----\nabc\n-----END-----',
      NEXT: '1',
    })
  })

  it('lets a later line override an earlier one', () => {
    expect(parseDotenv('A=1\nA=2')).toEqual({ A: '2' })
  })

  it.each([
    ['NOT AN ASSIGNMENT', 1],
    ['A=1\n1BAD=2', 2],
    ['A="unterminated', 1],
    ["A='unterminated", 1],
    ['A="x" y', 1],
  ])('names the line of the mistake in %j', (text, line) => {
    expect(() => parseDotenv(text)).toThrow(ConfigError)
    expect(() => parseDotenv(text)).toThrow(`.env line ${line}:`)
  })
})

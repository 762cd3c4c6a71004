/// A small `.env` reader: `KEY=VALUE` lines, `export ` prefixes, `#` comments, single quotes
/// (literal) and double quotes (escapes, may span lines). Nothing is interpolated.

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ConfigError } from './config-error.js'

const ASSIGNMENT = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/
const BLANK_OR_COMMENT = /^\s*(?:#.*)?$/
const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' }

/** The variables in `<cwd>/.env`, or none when there is no such file. */
export const readDotenv = (cwd: string): Record<string, string> => {
  const path = join(cwd, '.env')
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return {}
    throw new ConfigError('.env', `.env: cannot read ${path}: ${String(error)}`)
  }
  return parseDotenv(text)
}

export const parseDotenv = (text: string): Record<string, string> => {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/)
  const variables: Record<string, string> = {}
  let index = 0
  while (index < lines.length) {
    const line = lines[index] ?? ''
    const lineNumber = index + 1
    index++
    if (BLANK_OR_COMMENT.test(line)) continue
    const match = ASSIGNMENT.exec(line)
    const [, key, rest] = match ?? []
    if (key === undefined || rest === undefined) throw lineError(lineNumber, 'expected KEY=VALUE')
    const parsed = parseValue(rest, lines, index, lineNumber)
    variables[key] = parsed.value
    index = parsed.nextIndex
  }
  return variables
}

type Parsed = { value: string; nextIndex: number }

const parseValue = (rest: string, lines: string[], nextIndex: number, lineNumber: number): Parsed => {
  if (rest.startsWith('"')) return parseDoubleQuoted(rest, lines, nextIndex, lineNumber)
  if (rest.startsWith("'")) {
    const end = rest.indexOf("'", 1)
    if (end === -1) throw lineError(lineNumber, 'unterminated single quote')
    expectNothingAfter(rest.slice(end + 1), lineNumber)
    return { value: rest.slice(1, end), nextIndex }
  }
  // An unquoted value ends at a comment, which needs whitespace before it: `a#b` is a value.
  return { value: rest.replace(/(^|\s+)#.*$/, '').trim(), nextIndex }
}

const parseDoubleQuoted = (rest: string, lines: string[], startIndex: number, lineNumber: number): Parsed => {
  let text = rest.slice(1)
  let nextIndex = startIndex
  for (;;) {
    const end = closingQuote(text)
    if (end !== -1) {
      expectNothingAfter(text.slice(end + 1), lineNumber)
      return { value: unescapeDoubleQuoted(text.slice(0, end)), nextIndex }
    }
    const next = lines[nextIndex]
    if (next === undefined) throw lineError(lineNumber, 'unterminated double quote')
    text += `\n${next}`
    nextIndex++
  }
}

const closingQuote = (text: string): number => {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++
    else if (text[i] === '"') return i
  }
  return -1
}

const unescapeDoubleQuoted = (text: string): string =>
  text.replace(/\\(.)/g, (whole, char: string) => ESCAPES[char] ?? whole)

const expectNothingAfter = (tail: string, lineNumber: number): void => {
  if (!BLANK_OR_COMMENT.test(tail)) throw lineError(lineNumber, 'unexpected text after the closing quote')
}

const lineError = (lineNumber: number, reason: string): ConfigError =>
  new ConfigError('.env', `.env line ${lineNumber}: ${reason}`)

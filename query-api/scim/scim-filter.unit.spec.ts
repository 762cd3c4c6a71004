/// The SCIM list filter's grammar (RFC 7644 §3.4.2.2, as far as the plugin goes): the attributes it
/// names, its conjunctions, and the 400 `invalidFilter` for anything else.

import { describe, expect, test } from 'vitest'
import { ScimError } from '../../http/scim/scim-http.js'
import { parseScimFilter, parseScimGroupFilter } from './scim-filter.js'

const refusal = (filter: string) => {
  try {
    parseScimFilter(filter)
  } catch (error) {
    if (error instanceof ScimError) return error
  }
  throw new Error(`"${filter}" was accepted`)
}

describe('the SCIM Users filter', () => {
  test('reads each supported attribute, with or without the core schema prefix', () => {
    expect(parseScimFilter('userName eq "ada"')).toEqual([{ attribute: 'userName', value: 'ada' }])
    expect(parseScimFilter('urn:ietf:params:scim:schemas:core:2.0:User:externalId eq "x-1"')).toEqual([
      { attribute: 'externalId', value: 'x-1' },
    ])
    expect(parseScimFilter('id eq "u1"')).toEqual([{ attribute: 'id', value: 'u1' }])
  })

  test('reads the work address selection, with spaces inside its brackets', () => {
    for (const filter of [
      'emails[type eq "work"].value eq "ada@acme.test"',
      'emails[ type  eq "work" ].value eq "ada@acme.test"',
    ])
      expect(parseScimFilter(filter)).toEqual([{ attribute: 'emails.value', value: 'ada@acme.test' }])
  })

  test('splits on "and" outside quotes and brackets only', () => {
    expect(
      parseScimFilter('userName eq "tom and jerry" and emails[type eq "work"].value eq "t@j.test"'),
    ).toEqual([
      { attribute: 'userName', value: 'tom and jerry' },
      { attribute: 'emails.value', value: 't@j.test' },
    ])
  })

  test('refuses other operators, attributes, values and shapes with invalidFilter', () => {
    for (const [filter, detail] of [
      ['userName co "ada"', 'filter operator co is not supported'],
      ['name.givenName eq "Ada"', 'filter attribute name.givenName is not supported for User'],
      ['emails[type eq "home"].value eq "a@b.test"', 'not supported for User'],
      ['userName eq ada', 'filter equality value must be a valid quoted JSON string'],
      ['userName eq 42', 'filter equality value must be a quoted string'],
      ['userName eq "ada', 'filter contains malformed quotes or brackets'],
      ['userName', 'filter must use the form attribute eq "value"'],
    ] as const) {
      const error = refusal(filter)
      expect(error.status).toBe(400)
      expect(error.message).toContain(detail)
    }
  })

  test('allows ten expressions and no more', () => {
    const expressions = (n: number) => Array.from({ length: n }, (_, i) => `id eq "u${i}"`).join(' and ')
    expect(parseScimFilter(expressions(10))).toHaveLength(10)
    expect(refusal(expressions(11)).message).toContain('at most 10')
  })
})

describe('the SCIM Groups filter', () => {
  test('reads displayName, externalId and id, and no member attribute', () => {
    expect(parseScimGroupFilter('displayName eq "Ops"')).toEqual([{ attribute: 'displayName', value: 'Ops' }])
    expect(() => parseScimGroupFilter('members eq "u1"')).toThrow(ScimError)
  })
})

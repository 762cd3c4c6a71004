import { describe, expect, it } from 'vitest'
import { shownName } from './untrusted-text.js'

describe('a name someone else chose, shown in a mail', () => {
  it.each([
    ['Free prizes at https://evil.example', '“Free prizes at https[:]//evil[.]example”'],
    ['Visit evil.example/win now', '“Visit evil[.]example/win now”'],
    ['www.evil.example', '“www[.]evil[.]example”'],
    ['javascript:alert(1)', '“javascript[:]alert(1)”'],
    ['mailto:boss@evil.example', '“mailto[:]boss@evil[.]example”'],
  ])('neutralises the link in %j', (name, shown) => {
    expect(shownName(name)).toBe(shown)
  })

  it.each([
    ['Acme Rockets & Co.', '“Acme Rockets & Co.”'],
    ['Version 2.0 team', '“Version 2.0 team”'],
    ['Ada: the team', '“Ada: the team”'],
  ])('leaves an ordinary name as it is, quoted: %j', (name, shown) => {
    expect(shownName(name)).toBe(shown)
  })

  it('keeps one line and a bounded length', () => {
    expect(shownName('Acme\r\nBcc: victim@example.com')).toBe('“Acme Bcc: victim@example[.]com”')
    expect(shownName('\u202eevil')).toBe('“evil”')
    expect([...shownName('x'.repeat(500))]).toHaveLength(102)
  })
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ConfigError, type Env, loadConfig } from './config.js'

const made: string[] = []
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true })
})
const load = (env: Env) => {
  const cwd = mkdtempSync(join(tmpdir(), 'tessera-place-'))
  made.push(cwd)
  return loadConfig(env, { cwd })
}
const warnsAboutPlace = (env: Env) => load(env).warnings.some((warning) => warning.includes('PLACE_'))

describe('PLACE_COUNTRY_HEADER and PLACE_CITY_HEADER', () => {
  it('name no header unless told', () => {
    expect(load({}).placeHeaders).toEqual({ country: null, city: null })
  })

  it('take header names, looked up in lower case as Node keeps them', () => {
    const env = {
      TRUST_PROXY: 'true',
      PLACE_COUNTRY_HEADER: 'CF-IPCountry',
      PLACE_CITY_HEADER: 'X-Vercel-IP-City',
    }
    expect(load(env).placeHeaders).toEqual({ country: 'cf-ipcountry', city: 'x-vercel-ip-city' })
    expect(warnsAboutPlace(env)).toBe(false)
  })

  it('refuse what cannot be a header name', () => {
    expect(() => load({ PLACE_CITY_HEADER: 'X City' })).toThrow(ConfigError)
    expect(() => load({ PLACE_COUNTRY_HEADER: 'country:' })).toThrow(
      /PLACE_COUNTRY_HEADER must be a header name/,
    )
  })

  it('warn that without a trusted proxy the headers are never believed', () => {
    expect(warnsAboutPlace({ PLACE_COUNTRY_HEADER: 'CF-IPCountry' })).toBe(true)
    expect(warnsAboutPlace({ PLACE_COUNTRY_HEADER: 'CF-IPCountry', TRUST_PROXY: '0' })).toBe(true)
    expect(warnsAboutPlace({ PLACE_COUNTRY_HEADER: 'CF-IPCountry', TRUST_PROXY: '10.0.0.0/8' })).toBe(false)
  })
})

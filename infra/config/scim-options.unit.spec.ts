import { describe, expect, it } from 'vitest'
import { parseFeatureOptions } from './config-file.js'
import { resolveScimOptions } from './scim-options.js'

const scim = (value: unknown) => parseFeatureOptions({ scim: value }).scim

describe('scim options', () => {
  it('reads connections with the plugin names; provisioningDomainId defaults to the id, scopes to all four', () => {
    const options = scim({ connections: [{ id: 'acme', credentials: [{ id: 'a', token: 'tok-1' }] }] })
    expect(options.connections).toEqual([
      {
        id: 'acme',
        provisioningDomainId: 'acme',
        credentials: [
          {
            id: 'a',
            token: { value: 'tok-1' },
            scopes: ['scim.users.read', 'scim.users.write', 'scim.groups.read', 'scim.groups.write'],
            expiresAt: null,
          },
        ],
      },
    ])
  })

  it('keeps only the hash of a token, read from the environment when named there', () => {
    const options = scim({
      connections: [
        {
          id: 'c',
          credentials: [
            { id: 'a', token: { env: 'TOK' } },
            { id: 'b', token: { env: 'NONE' } },
          ],
        },
      ],
    })
    const warnings: string[] = []
    const resolved = resolveScimOptions(
      options,
      (name) => (name === 'TOK' ? 'secret-token' : undefined),
      warnings,
    )
    expect(resolved.connections[0]?.credentials.map((c) => c.id)).toEqual(['a'])
    expect(JSON.stringify(resolved)).not.toContain('secret-token')
    expect(resolved.connections[0]?.credentials[0]?.tokenHash).toMatch(/^[0-9a-f]{64}$/)
    expect(warnings).toEqual(['SCIM credential c/b has no token: it is not accepted.'])
  })

  it('names the bad key', () => {
    expect(() =>
      scim({ connections: [{ id: 'c', credentials: [{ id: 'a', token: 'x', scopes: ['scim.all'] }] }] }),
    ).toThrow(/scim\.connections\.0\.credentials\.0\.scopes/)
    expect(() =>
      scim({ connections: [{ id: 'ba_scim_connection_1', credentials: [{ id: 'a', token: 'x' }] }] }),
    ).toThrow(/scim\.connections\.0\.id/)
    expect(() => scim({ connections: [{ id: 'c', credentials: [] }] })).toThrow(
      /scim\.connections\.0\.credentials/,
    )
    expect(() =>
      scim({ connections: [{ id: 'c', credentials: [{ id: 'a', token: 'has space' }] }] }),
    ).toThrow(/token/)
    expect(() => scim({ connection: [] })).toThrow(/scim\.connection is not a known option/)
  })
})

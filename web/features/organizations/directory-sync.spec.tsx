import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import type { DirectoryActivity, DirectoryCredential } from './directory-sync.api.js'
import { ADA, fullOrganization, GRACE, renderOrganizations } from './organizations.fixture.js'

/// Directory sync in the organization's settings: an owner makes a SCIM token (shown once), sees
/// the tokens that exist (never their secret) and revokes one.

const TOKEN = `ba_scim_credential_${'a'.repeat(32)}.${'s'.repeat(48)}`

const credential = (overrides: Partial<DirectoryCredential> = {}): DirectoryCredential => ({
  credentialId: `ba_scim_credential_${'a'.repeat(32)}`,
  status: 'active',
  scopes: ['scim.users.read', 'scim.users.write'],
  expiresAt: null,
  createdAt: '2026-11-28T10:00:00.000Z',
  revokedAt: null,
  ...overrides,
})

const NOTHING_YET: DirectoryActivity = {
  lastSyncAt: null,
  provisioned: { total: 0, active: 0 },
  latestPeople: [],
}

const serveDirectory = (activity: DirectoryActivity = NOTHING_YET, first: DirectoryCredential[] = []) => {
  let credentials = first
  const revoked: string[] = []
  const connection = {
    connectionId: 'ba_scim_connection_x',
    provisioningDomainId: 'org-1',
    status: 'active',
    ...activity,
  }
  fakeApi({
    'GET /organization/get-full-organization': { body: fullOrganization({ members: [ADA, GRACE] }) },
    'GET /scim/list-managed-connections': (call) =>
      call.query.get('organizationId') === 'org-1'
        ? { body: { connections: credentials.length ? [{ ...connection, credentials }] : [] } }
        : { status: 500, body: { code: 'WRONG_ORGANIZATION', message: '' } },
    'POST /scim/rotate-managed-credential': () => {
      credentials = [credential()]
      return { body: { connection, credential: credential(), token: TOKEN } }
    },
    'POST /scim/revoke-managed-credential': (call) => {
      const { credentialId } = call.body as { credentialId: string }
      revoked.push(credentialId)
      credentials = credentials.map((c) =>
        c.credentialId === credentialId ? { ...c, status: 'revoked' } : c,
      )
      return { body: { credential: credential({ status: 'revoked' }) } }
    },
  })
  return { revoked }
}

describe('directory sync', () => {
  it('makes a token shown once, lists it without its secret, and revokes it', async () => {
    const { revoked } = serveDirectory()
    const { user } = renderOrganizations('/account/organizations/org-1/settings')
    expect(await screen.findByRole('heading', { name: 'Directory sync' })).toBeTruthy()
    expect(await screen.findByText('No token yet.')).toBeTruthy()

    await user.click(screen.getByRole('button', { name: 'Create a token' }))
    expect(await screen.findByText(TOKEN)).toBeTruthy()
    const list = await screen.findByRole('list', { name: 'Directory sync tokens' })
    expect(list.textContent).not.toContain(TOKEN)
    expect(list.textContent).toContain('scim.users.read, scim.users.write')

    await user.click(within(list).getByRole('button', { name: 'Revoke' }))
    await waitFor(() => expect(revoked).toEqual([credential().credentialId]))
  })

  it('says what the directory provisioned and when it last synced, latest change first', async () => {
    serveDirectory(
      {
        lastSyncAt: '2026-11-28T10:05:00.000Z',
        provisioned: { total: 2, active: 1 },
        latestPeople: [
          {
            userId: 'u9',
            name: 'Joan Clarke',
            email: 'joan@acme.test',
            active: false,
            updatedAt: '2026-11-28T10:05:00.000Z',
          },
          {
            userId: 'u8',
            name: 'Alan Turing',
            email: 'alan@acme.test',
            active: true,
            updatedAt: '2026-11-28T10:00:00.000Z',
          },
        ],
      },
      [credential()],
    )
    renderOrganizations('/account/organizations/org-1/settings')
    const section = await screen.findByRole('region', { name: 'Provisioned people' })
    expect(section.textContent).toContain('2 people provisioned, 1 active.')
    expect(section.textContent).toContain('Last sync')
    const rows = within(section).getAllByRole('listitem')
    expect(rows.map((row) => row.querySelector('strong')?.textContent)).toEqual([
      'Joan Clarke',
      'Alan Turing',
    ])
    expect(within(rows[0] as HTMLElement).getByText('Deactivated')).toBeTruthy()
    expect(within(rows[1] as HTMLElement).queryByText('Deactivated')).toBeNull()
    expect(within(section).getByRole('link', { name: 'See every member' }).getAttribute('href')).toBe(
      '/account/organizations/org-1',
    )
  })

  it('says so when the directory has not synced yet', async () => {
    serveDirectory(NOTHING_YET, [credential()])
    renderOrganizations('/account/organizations/org-1/settings')
    const section = await screen.findByRole('region', { name: 'Provisioned people' })
    expect(section.textContent).toContain('Nobody provisioned yet. No sync yet.')
  })
})

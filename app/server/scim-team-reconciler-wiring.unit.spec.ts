/// On the SQL store a group's events and its team's are one transaction: no reconciler is made, so
/// nothing reads the log or takes a lock for it there.

import pino from 'pino'
import { expect, test } from 'vitest'
import { organizationDecider } from '../../domain/organization/organization.js'
import { loadConfig } from '../../infra/config/config.js'
import { testOrganizationPolicy } from '../../tests/support/organization-fixtures.js'
import { createTesseraScimTeamReconciler } from './scim-team-reconciler-wiring.js'

test('no SCIM team reconciler on the SQL event store', () => {
  const config = loadConfig({ NODE_ENV: 'test' }, { cwd: '/nonexistent-tessera-test-dir' })
  expect(config.eventStore.kind).toBe('sql')
  // Nothing of the database, the store or the projector is touched: they are not there at all.
  const absent = undefined as never
  const reconciler = createTesseraScimTeamReconciler({
    config,
    logger: pino({ level: 'silent' }),
    database: absent,
    store: absent,
    projector: absent,
    organizations: organizationDecider(testOrganizationPolicy()),
    clock: () => new Date(),
  })
  expect(reconciler).toBeNull()
})

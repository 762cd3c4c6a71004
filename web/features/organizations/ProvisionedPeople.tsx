import { Link } from 'react-router'
import { Badge } from '../../ui/Badge.js'
import { Time } from '../../ui/Time.js'
import type { DirectoryActivity } from './directory-sync.api.js'

/// What the identity provider has done through directory sync: how many people it provisioned, when
/// it last changed anything, and the people it changed last, so an owner can tell the sync works.

const people = (n: number) => (n === 1 ? '1 person' : `${n} people`)

export const ProvisionedPeople = ({
  directory,
  organizationId,
}: {
  directory: DirectoryActivity
  organizationId: string
}) => (
  <section aria-labelledby="provisioned-people">
    <h3 id="provisioned-people">Provisioned people</h3>
    <p>
      {directory.provisioned.total === 0
        ? 'Nobody provisioned yet.'
        : `${people(directory.provisioned.total)} provisioned, ${directory.provisioned.active} active.`}{' '}
      {directory.lastSyncAt ? (
        <>
          Last sync <Time value={directory.lastSyncAt} />.
        </>
      ) : (
        'No sync yet.'
      )}
    </p>
    {directory.latestPeople.length > 0 ? (
      <>
        <ul aria-label="Provisioned people, latest change first">
          {directory.latestPeople.map((person) => (
            <li key={person.userId}>
              <strong>{person.name || person.email}</strong> <span className="muted">{person.email}</span>{' '}
              {person.active ? null : <Badge tone="warning">Deactivated</Badge>}
              <p className="muted small">
                Changed <Time value={person.updatedAt} />
              </p>
            </li>
          ))}
        </ul>
        <p>
          <Link to={`/account/organizations/${organizationId}`}>See every member</Link>
        </p>
      </>
    ) : null}
  </section>
)

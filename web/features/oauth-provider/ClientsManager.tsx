import { useCallback, useEffect, useRef, useState } from 'react'
import { Button } from '../../ui/Button.js'
import { Card } from '../../ui/Card.js'
import { Confirm } from '../../ui/Confirm.js'
import { FormActions } from '../../ui/Form.js'
import { Notice } from '../../ui/Notice.js'
import { Loading } from '../../ui/Skeleton.js'
import { type ClientDraft, ClientForm } from './ClientForm.js'
import {
  type ClientScope,
  createClient,
  deleteClient,
  listClients,
  type OAuthClient,
  rotateSecret,
  updateClient,
} from './oauth-clients.requests.js'
import './oauth-provider.css'

const NEW: ClientDraft = { client_name: '', redirect_uris: [], skip_consent: false, confidential: true }
const nameOf = (client: OAuthClient) => client.client_name || client.client_id

/** A client's id and, this once, its secret; Tessera keeps only the secret's hash. */
const Credentials = ({ client, onDone }: { client: OAuthClient; onDone: () => void }) => {
  const secret = useRef<HTMLInputElement>(null)
  useEffect(() => {
    secret.current?.focus()
    secret.current?.select()
  }, [])
  return (
    <Notice tone="success" title={`Credentials of ${nameOf(client)}`}>
      <p>
        <strong>Copy the secret now: you will not see it again.</strong> Tessera keeps only a fingerprint of
        it.
      </p>
      <dl className="client-credentials">
        <dt>Client ID</dt>
        <dd className="mono">{client.client_id}</dd>
        <dt>
          <label htmlFor="client-secret">Client secret</label>
        </dt>
        <dd>
          <input
            ref={secret}
            id="client-secret"
            className="input mono"
            readOnly
            value={client.client_secret}
          />
        </dd>
      </dl>
      <FormActions>
        <Button size="small" onClick={onDone}>
          I have saved it
        </Button>
      </FormActions>
    </Notice>
  )
}

/**
 * OAuth clients of one scope (the console's: every client, by operators; an organization's: its
 * own, by its owners and admins): register one (its secret is shown once), change its name,
 * redirect URIs and (operators only) trust, replace its secret, or delete it (every token it holds
 * stops working).
 */
export const ClientsManager = ({
  scope,
  listTitle = 'Registered applications',
}: {
  scope: ClientScope
  listTitle?: string
}) => {
  const [clients, setClients] = useState<OAuthClient[] | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [news, setNews] = useState<string | null>(null)
  const [shown, setShown] = useState<OAuthClient | null>(null)
  const [adding, setAdding] = useState(false)
  const heading = useRef<HTMLHeadingElement>(null)
  const offersTrust = scope.organizationId === null

  const load = useCallback(async () => setClients(await listClients(scope)), [scope])
  useEffect(() => {
    load().catch((error: Error) => setProblem(error.message))
  }, [load])

  const changed = async (done: string, credentials?: OAuthClient) => {
    await load()
    setNews(done)
    if (credentials?.client_secret) setShown(credentials)
    else heading.current?.focus()
  }
  const create = async (draft: ClientDraft) => {
    const client = await createClient(draft, scope)
    setAdding(false)
    await changed(`${nameOf(client)} is registered. Its client ID is ${client.client_id}.`, client)
  }

  return (
    <>
      {shown ? <Credentials client={shown} onDone={() => setShown(null)} /> : null}
      <Card title={listTitle} headingRef={heading}>
        <Notice tone="error">{problem}</Notice>
        <Notice tone="success">{news}</Notice>
        {clients === null ? (
          problem ? null : (
            <Loading />
          )
        ) : clients.length === 0 ? (
          <p>No application is registered yet.</p>
        ) : (
          <ul className="rows" aria-label="OAuth clients">
            {clients.map((client) => (
              <ClientRow
                key={client.client_id}
                client={client}
                offersTrust={offersTrust}
                onChanged={changed}
                onProblem={setProblem}
              />
            ))}
          </ul>
        )}
        {adding ? (
          <ClientForm
            label="Register an application"
            initial={NEW}
            choosesKind
            offersTrust={offersTrust}
            submitLabel="Register"
            onSubmit={create}
            onCancel={() => setAdding(false)}
          />
        ) : (
          <FormActions>
            <Button variant="primary" onClick={() => setAdding(true)}>
              Register an application
            </Button>
          </FormActions>
        )}
      </Card>
    </>
  )
}

type RowProps = {
  client: OAuthClient
  offersTrust: boolean
  onChanged: (done: string, credentials?: OAuthClient) => Promise<void>
  onProblem: (problem: string | null) => void
}

const ClientRow = ({ client, offersTrust, onChanged, onProblem }: RowProps) => {
  const [mode, setMode] = useState<'view' | 'edit' | 'delete'>('view')
  const [pending, setPending] = useState(false)
  const name = nameOf(client)
  const act = async (action: () => Promise<OAuthClient | null>, done: string) => {
    setPending(true)
    onProblem(null)
    try {
      const answer = await action()
      setMode('view')
      await onChanged(done, answer ?? undefined)
    } catch (error) {
      onProblem(error instanceof Error ? error.message : String(error))
    } finally {
      setPending(false)
    }
  }
  const save = async (draft: ClientDraft) => {
    const { confidential: _kind, skip_consent, ...fields } = draft
    await updateClient(client.client_id, offersTrust ? { ...fields, skip_consent } : fields)
    setMode('view')
    await onChanged(`${draft.client_name} is saved.`)
  }
  return (
    <li className="oauth-client">
      <div className="connected-app-summary">
        <strong>{name}</strong>
        <span className="small mono">{client.client_id}</span>
        <span className="small">
          {client.public ? 'Public' : 'Confidential'}
          {client.skip_consent ? ' · trusted, skips consent' : ''} · {client.redirect_uris.join(', ')}
        </span>
      </div>
      {mode === 'edit' ? (
        <ClientForm
          label={`Edit ${name}`}
          initial={{
            client_name: client.client_name ?? '',
            redirect_uris: client.redirect_uris,
            skip_consent: client.skip_consent ?? false,
            confidential: !client.public,
          }}
          choosesKind={false}
          offersTrust={offersTrust}
          submitLabel="Save"
          onSubmit={save}
          onCancel={() => setMode('view')}
        />
      ) : mode === 'delete' ? (
        <Confirm
          question={`Delete ${name}?`}
          consequence="Everyone signed in to it through Tessera is signed out of it, and its tokens stop working."
          confirmLabel="Delete"
          pendingLabel="Deleting…"
          pending={pending}
          size="small"
          onConfirm={() => void act(() => deleteClient(client.client_id), `${name} was deleted.`)}
          onCancel={() => setMode('view')}
        />
      ) : (
        <div className="oauth-client-actions">
          <Button size="small" onClick={() => setMode('edit')}>
            Edit {name}
          </Button>
          {client.public ? null : (
            <Button
              size="small"
              pending={pending}
              pendingLabel="Replacing…"
              onClick={() => void act(() => rotateSecret(client.client_id), `${name} has a new secret.`)}
            >
              New secret for {name}
            </Button>
          )}
          <Button size="small" variant="danger-outline" onClick={() => setMode('delete')}>
            Delete {name}
          </Button>
        </div>
      )}
    </li>
  )
}

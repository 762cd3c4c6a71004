/// The OAuth client aggregate: one stream per client registered with Tessera as an OpenID provider.
/// Its registration, changes, secret rotations and deletion are events; the secret itself never
/// arrives here, only its SHA-256 hash (shown once to whoever registered the client).

import type { Decider } from '../shared/decider.js'
import {
  type ClientCaller,
  refuseUnlessMayManageClient,
  refuseUnlessMayManageOrganization,
} from './client-authority.js'
import { oauthError } from './oauth-errors.js'

export type { ClientCaller } from './client-authority.js'

export const oauthClientStream = (clientId: string) => `oauth-client-${clientId}`

export type TokenEndpointAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none'
export const TOKEN_ENDPOINT_AUTH_METHODS: readonly TokenEndpointAuthMethod[] = [
  'client_secret_basic',
  'client_secret_post',
  'none',
]
export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const
export type GrantType = (typeof GRANT_TYPES)[number]

/** What RFC 7591 metadata Tessera keeps, in its own words. */
export type ClientSettings = {
  name: string | null
  uri: string | null
  logoUri: string | null
  contacts: string[] | null
  tosUri: string | null
  policyUri: string | null
  redirectUris: string[]
  postLogoutRedirectUris: string[]
  grantTypes: string[]
  responseTypes: string[]
  tokenEndpointAuthMethod: TokenEndpointAuthMethod
  /** Scopes the client may ask for; null: every scope the provider offers. */
  scopes: string[] | null
  /** A trusted first-party client: its users are not asked for consent. */
  skipConsent: boolean
  enableEndSession: boolean
  disabled: boolean
}

/** Who registered a client: a person (its owner), an operator's backend, or nobody (open registration). */
export type ClientSource = 'managed' | 'dynamic' | 'admin'

/** Which client an event is about, and whose it is (an organization's, for its feed). */
export type ClientRef = { clientId: string; userId: string | null; organizationId?: string }

export type OAuthClientEvent =
  | {
      type: 'oauth-client.registered'
      data: {
        clientId: string
        /** The owner; null for a client registered by a backend or anonymously. */
        userId: string | null
        /** The organization that owns it (the plugin's `reference_id`); absent before organizations. */
        organizationId?: string | null
        settings: ClientSettings
        /** SHA-256 of the secret; null for a public client. */
        secretHash: string | null
        source: ClientSource
        createdAt: string
      }
    }
  | {
      type: 'oauth-client.updated'
      data: ClientRef & { changes: Partial<ClientSettings> }
    }
  | {
      type: 'oauth-client.secret-rotated'
      data: ClientRef & { secretHash: string }
    }
  | { type: 'oauth-client.deleted'; data: ClientRef }

/// Commands

/** The provider's rules a registration is checked against (the `oauthProvider` options). */
export type ClientPolicy = { scopes: readonly string[]; grantTypes: readonly string[] }

export type OAuthClientCommand =
  | {
      type: 'register-client'
      clientId: string
      caller: ClientCaller
      owner: string | null
      /** The organization the client is registered for; null: the owner's or nobody's. */
      organizationId: string | null
      settings: ClientSettings
      secretHash: string | null
      source: ClientSource
      policy: ClientPolicy
      now: string
    }
  | { type: 'update-client'; caller: ClientCaller; changes: Partial<ClientSettings>; policy: ClientPolicy }
  | { type: 'rotate-client-secret'; caller: ClientCaller; secretHash: string }
  | { type: 'delete-client'; caller: ClientCaller }

/// State

export type OAuthClient =
  | { status: 'none' }
  | {
      status: 'active' | 'deleted'
      clientId: string
      userId: string | null
      organizationId: string | null
      settings: ClientSettings
    }

export const initialState = (): OAuthClient => ({ status: 'none' })

/// Evolve

export const evolve = (state: OAuthClient, event: OAuthClientEvent): OAuthClient => {
  switch (event.type) {
    case 'oauth-client.registered': {
      const { clientId, userId, settings } = event.data
      return {
        status: 'active',
        clientId,
        userId,
        organizationId: event.data.organizationId ?? null,
        settings,
      }
    }
    case 'oauth-client.updated':
      return state.status === 'none'
        ? state
        : { ...state, settings: { ...state.settings, ...event.data.changes } }
    case 'oauth-client.deleted':
      return state.status === 'none' ? state : { ...state, status: 'deleted' }
    default:
      return state
  }
}

/// Decide

const isLoopback = (host: string) => host === 'localhost' || host === '127.0.0.1' || host === '[::1]'

/** RFC 6749 3.1.2 and RFC 8252: absolute, no fragment; plain http only to this machine. */
const checkRedirectUri = (uri: string): void => {
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    throw oauthError('invalid_redirect_uri', `invalid redirect uri ${uri}`)
  }
  if (uri.includes('#') || url.username || url.password)
    throw oauthError('invalid_redirect_uri', `redirect uri ${uri} must not carry a fragment or credentials`)
  if (url.protocol === 'http:' && !isLoopback(url.hostname))
    throw oauthError('invalid_redirect_uri', `redirect uri ${uri} must use https`)
  if (url.protocol === 'javascript:' || url.protocol === 'data:')
    throw oauthError('invalid_redirect_uri', `invalid redirect uri ${uri}`)
}

const checkSettings = (settings: ClientSettings, policy: ClientPolicy): void => {
  const { grantTypes, responseTypes, redirectUris, tokenEndpointAuthMethod, scopes } = settings
  for (const grant of grantTypes)
    if (!policy.grantTypes.includes(grant))
      throw oauthError('invalid_client_metadata', `unsupported grant_type ${grant}`)
  for (const type of responseTypes)
    if (type !== 'code') throw oauthError('invalid_client_metadata', `unsupported response_type ${type}`)
  const code = grantTypes.includes('authorization_code')
  if (code && redirectUris.length === 0)
    throw oauthError(
      'invalid_redirect_uri',
      'Redirect URIs are required for authorization_code and implicit grant types',
    )
  if (code !== responseTypes.includes('code'))
    throw oauthError(
      'invalid_client_metadata',
      "When 'authorization_code' grant type is used, 'code' response type must be included",
    )
  for (const uri of [...redirectUris, ...settings.postLogoutRedirectUris]) checkRedirectUri(uri)
  if (tokenEndpointAuthMethod === 'none' && grantTypes.includes('client_credentials'))
    throw oauthError('invalid_client_metadata', 'client_credentials requires a confidential client')
  const unknown = (scopes ?? []).filter((scope) => !policy.scopes.includes(scope))
  if (unknown.length > 0)
    throw oauthError('invalid_scope', `The following scopes are invalid: ${unknown.join(', ')}`)
}

const register = (command: Extract<OAuthClientCommand, { type: 'register-client' }>, state: OAuthClient) => {
  // A retried registration (same random id) adds nothing.
  if (state.status !== 'none') return []
  const { clientId, owner, organizationId, settings, secretHash, source, policy, caller, now } = command
  if (organizationId !== null) refuseUnlessMayManageOrganization(caller, organizationId, 'create')
  checkSettings(settings, policy)
  // Open registration (RFC 7591 without credentials) cannot vouch for a client: no machine
  // credentials, no skipping of the person's consent.
  if (
    caller.kind === 'anonymous' &&
    (settings.skipConsent || settings.grantTypes.includes('client_credentials'))
  )
    throw oauthError(
      'invalid_client_metadata',
      'client_credentials grant requires authenticated registration',
    )
  if ((caller.kind === 'owner' || caller.kind === 'member') && settings.skipConsent)
    throw oauthError('invalid_client_metadata', 'only an operator may register a client that skips consent')
  if ((settings.tokenEndpointAuthMethod === 'none') !== (secretHash === null))
    throw oauthError('invalid_client_metadata', 'a public client has no secret; a confidential one has one')
  return [
    {
      type: 'oauth-client.registered' as const,
      data: {
        clientId,
        // A client of an organization is the organization's, not its registrant's (as the plugin).
        userId: organizationId === null ? owner : null,
        ...(organizationId === null ? {} : { organizationId }),
        settings,
        secretHash,
        source,
        createdAt: now,
      },
    },
  ]
}

const ACTION = {
  'update-client': 'update',
  'rotate-client-secret': 'rotate',
  'delete-client': 'delete',
} as const

export const decide = (command: OAuthClientCommand, state: OAuthClient): OAuthClientEvent[] => {
  if (command.type === 'register-client') return register(command, state)
  if (state.status !== 'active') throw oauthError('not_found', 'client not found')
  refuseUnlessMayManageClient(command.caller, state, ACTION[command.type])
  const { clientId, userId, organizationId } = state
  const ref: ClientRef = { clientId, userId, ...(organizationId === null ? {} : { organizationId }) }
  switch (command.type) {
    case 'update-client': {
      const { changes, caller } = command
      if (changes.skipConsent && caller.kind !== 'operator')
        throw oauthError('invalid_client_metadata', 'only an operator may let a client skip consent')
      if (
        changes.tokenEndpointAuthMethod &&
        (changes.tokenEndpointAuthMethod === 'none') !== (state.settings.tokenEndpointAuthMethod === 'none')
      )
        throw oauthError('invalid_client_metadata', 'a client cannot change between public and confidential')
      checkSettings({ ...state.settings, ...changes }, command.policy)
      return Object.keys(changes).length > 0
        ? [{ type: 'oauth-client.updated', data: { ...ref, changes } }]
        : []
    }
    case 'rotate-client-secret':
      if (state.settings.tokenEndpointAuthMethod === 'none')
        throw oauthError('invalid_client', 'public clients cannot rotate secrets')
      return [{ type: 'oauth-client.secret-rotated', data: { ...ref, secretHash: command.secretHash } }]
    case 'delete-client':
      return [{ type: 'oauth-client.deleted', data: ref }]
  }
}

export const oauthClientDecider: Decider<OAuthClientCommand, OAuthClientEvent, OAuthClient> = {
  decide,
  evolve,
  initialState,
}

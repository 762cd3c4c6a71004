import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser'
import { request } from '../../app/http.js'
import { type WayOn, withOAuthQuery } from '../oauth-provider/hand-off.js'

/// The passkey routes (better-auth's passkey plugin's wire), without the store: the sign-in page
/// loads before it, and the Security page's section keeps its own list.

export type Passkey = {
  id: string
  name: string | null
  credentialID: string
  deviceType: string
  backedUp: boolean
  createdAt: string
}

export const listPasskeys = () => request<Passkey[]>('/passkey/list-user-passkeys')

export const registrationOptions = () =>
  request<PublicKeyCredentialCreationOptionsJSON>('/passkey/generate-register-options')

export const verifyRegistration = (response: RegistrationResponseJSON, name: string | undefined) =>
  request<Passkey>('/passkey/verify-registration', {
    method: 'POST',
    body: { response, ...(name ? { name } : {}) },
  })

export const renamePasskey = (id: string, name: string) =>
  request<{ passkey: Passkey }>('/passkey/update-passkey', { method: 'POST', body: { id, name } })

export const deletePasskey = (id: string) =>
  request<{ status: boolean }>('/passkey/delete-passkey', { method: 'POST', body: { id } })

export const authenticationOptions = () =>
  request<PublicKeyCredentialRequestOptionsJSON>('/passkey/generate-authenticate-options')

/** Signs in; with an application's signed request (`oauthQuery`), answers the way on instead. */
export const verifyAuthentication = (response: AuthenticationResponseJSON, oauthQuery?: string) =>
  request<{ session: { id: string }; user: { id: string } } | WayOn>('/passkey/verify-authentication', {
    method: 'POST',
    body: withOAuthQuery({ response }, oauthQuery),
  })

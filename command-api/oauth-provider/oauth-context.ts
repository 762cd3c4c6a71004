/// What the OpenID provider's routes and use cases need: the command side's ports, the key set that
/// signs its tokens, and the server API's guard (operators' backends manage clients).

import type { JwtPort, ServerApiPort } from '../../http/context.js'
import type { Config } from '../../infra/config/config.js'
import type { CommandContext } from '../context.js'

export type OAuthContext = CommandContext & JwtPort & ServerApiPort

/** The issuer: BASE_URL with the API's base path, as better-auth's plugin names it. */
export const issuerOf = (config: Pick<Config, 'baseUrl' | 'basePath'>): string =>
  `${config.baseUrl.replace(/\/$/, '')}${config.basePath}`

/** The provider's rules a client's metadata is checked against. */
export const clientPolicyOf = (config: Config) => ({
  scopes: config.oauthProvider.scopes,
  grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
})

/// The configured providers as openid-client adapters, made once per configuration. A provider on
/// plain http (its issuer, or an endpoint moved in the configuration) is accepted only on a
/// loopback address (a provider run beside Tessera or in tests).

import { AUTH_ERRORS } from '../../domain/errors.js'
import type { Config } from '../../infra/config/config.js'
import type { SocialProviderSettings } from '../../infra/config/social-providers.js'
import { createSocialProvider, type SocialProvider } from '../../infra/oauth/oauth-client.js'

const made = new WeakMap<Config, ReadonlyMap<string, SocialProvider>>()

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])
const isLoopbackHttp = (address: string) => {
  const url = new URL(address)
  return url.protocol === 'http:' && LOOPBACK.has(url.hostname)
}
const onLoopback = ({ issuer, endpoints }: SocialProviderSettings) =>
  [issuer, ...Object.values(endpoints)].some((address) => address && isLoopbackHttp(address))

export const socialProviders = (config: Config): ReadonlyMap<string, SocialProvider> => {
  let providers = made.get(config)
  if (!providers) {
    providers = new Map(
      Object.values(config.socialProviders).map((settings) => [
        settings.id,
        createSocialProvider(settings, { allowInsecureRequests: onLoopback(settings) }),
      ]),
    )
    made.set(config, providers)
  }
  return providers
}

/** The provider by id; 404 'Provider not found' for one that is not configured. */
export const providerOf = (config: Config, id: string): SocialProvider => {
  const provider = socialProviders(config).get(id)
  if (!provider) throw AUTH_ERRORS.error('PROVIDER_NOT_FOUND')
  return provider
}

export const callbackUrlOf = (config: Config, providerId: string): string =>
  `${config.baseUrl}${config.basePath}/callback/${providerId}`

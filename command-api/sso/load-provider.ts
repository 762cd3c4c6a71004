/// An SSO provider with its secrets, as its own stream holds them (the read model has none).

import { fold } from '../../domain/shared/decider.js'
import {
  type ActiveProvider,
  type SsoProviderEvent,
  ssoProviderDecider,
  ssoProviderStream,
} from '../../domain/sso/sso-provider.js'
import type { CommandContext } from '../context.js'

export const loadProvider = async (
  ctx: CommandContext,
  providerId: string,
): Promise<ActiveProvider | null> => {
  const events = await ctx.store.readStream(ssoProviderStream(providerId))
  const state = fold(ssoProviderDecider, events as unknown as SsoProviderEvent[])
  return state.status === 'active' ? state : null
}

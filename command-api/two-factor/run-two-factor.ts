/// Loading and changing one person's two-factor aggregate.

import { fold } from '../../domain/shared/decider.js'
import type { Actor, RequestOrigin } from '../../domain/shared/metadata.js'
import { metadataFor } from '../../domain/shared/metadata.js'
import {
  type TwoFactor,
  type TwoFactorCommand,
  type TwoFactorEvent,
  twoFactorDecider,
  twoFactorStream,
} from '../../domain/two-factor/two-factor.js'
import type { EventStore } from '../../infra/event-store/event-store.js'
import type { CommandContext } from '../context.js'

/**
 * The state as the log has it now, for what the edge must compute before deciding (which TOTP step
 * a code matches needs the sealed secret). Read from the log, not a read model: a factor turned on
 * a moment ago already guards the next sign-in, whatever the projector's lag.
 */
export const loadTwoFactor = async (
  store: Pick<EventStore, 'readStream'>,
  userId: string,
): Promise<TwoFactor> => (await loadTwoFactorAt(store, userId)).state

/** The aggregate as the log has it now, and the version it was read at (for an append pinned to it). */
export type LoadedTwoFactor = { state: TwoFactor; version: number | 'no_stream' }

export const loadTwoFactorAt = async (
  store: Pick<EventStore, 'readStream'>,
  userId: string,
): Promise<LoadedTwoFactor> => {
  const history = await store.readStream(twoFactorStream(userId))
  // The stream holds only this aggregate's events: they were written through its decider.
  const state = fold(twoFactorDecider, history as unknown as TwoFactorEvent[])
  return { state, version: history.at(-1)?.streamVersion ?? 'no_stream' }
}

/**
 * The same through `handle`'s kept folded states: only what was appended since the last command on
 * the stream is read. A command pinned to `version` is then decided on that very state.
 */
export const loadKeptTwoFactor = async (
  ctx: Pick<CommandContext, 'handle'>,
  userId: string,
): Promise<LoadedTwoFactor> => {
  const { state, version } = await ctx.handle.load(twoFactorDecider, twoFactorStream(userId))
  return { state, version: version === 0 ? 'no_stream' : version }
}

export const runTwoFactorCommand = (
  ctx: Pick<CommandContext, 'handle' | 'clock'>,
  origin: RequestOrigin,
  userId: string,
  command: TwoFactorCommand,
  actor: Actor = { type: 'user', userId },
) =>
  ctx.handle(twoFactorDecider, twoFactorStream(userId), command, {
    metadata: metadataFor(origin, actor, ctx.clock()),
  })

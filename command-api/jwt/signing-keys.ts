/// Use cases of the signing-key set: make sure a key signs (the first one, lazily, or its successor
/// once the rotation interval has passed) and rotate on demand (`tessera jwks rotate`). The key pair
/// is generated here and its private half sealed under the secret before it becomes an event, so
/// the log and the `jwks` table only ever hold it sealed.

import { metadataFor, type RequestOrigin } from '../../domain/shared/metadata.js'
import {
  type NewSigningKey,
  SIGNING_KEYS_STREAM,
  type SigningKeyCommand,
  signingKeyDecider,
} from '../../domain/signing-key/signing-key.js'
import { sealPrivateKey } from '../../infra/crypto/jwt/sealed-key.js'
import { generateSigningKey } from '../../infra/crypto/jwt/signing-key.js'
import type { CommandContext } from '../context.js'

export type SigningKeyContext = Pick<CommandContext, 'config' | 'handle' | 'clock'>

/** A fresh key pair of the configured algorithm, its private half sealed to its kid. */
const newSealedKey = async (ctx: SigningKeyContext, now: Date): Promise<NewSigningKey> => {
  const key = await generateSigningKey(ctx.config.jwt.algorithm, { now })
  return {
    kid: key.kid,
    alg: key.alg,
    publicJwk: { ...key.publicJwk },
    sealedPrivateKey: sealPrivateKey(key.privateJwk, ctx.config.secret, key.kid),
  }
}

const run = async (
  ctx: SigningKeyContext,
  origin: RequestOrigin,
  command: (key: NewSigningKey, now: string) => SigningKeyCommand,
) => {
  const now = ctx.clock()
  const key = await newSealedKey(ctx, now)
  const { events } = await ctx.handle(
    signingKeyDecider,
    SIGNING_KEYS_STREAM,
    command(key, now.toISOString()),
    {
      metadata: metadataFor(origin, { type: 'system' }, now),
    },
  )
  return events
}

/**
 * Creates a key when none signs, or a successor when the current one is older than the rotation
 * interval. Two callers racing (in one process or several) append to one stream at one expected
 * version: the loser re-decides, finds the winner's key, and adds nothing.
 */
export const ensureSigningKey = async (ctx: SigningKeyContext, origin: RequestOrigin): Promise<void> => {
  await run(ctx, origin, (key, now) => ({
    type: 'ensure-signing-key',
    key,
    now,
    rotationIntervalSeconds: ctx.config.jwt.rotationIntervalSeconds,
  }))
}

/** Retires the current key and creates the one that signs from now on. */
export const rotateSigningKey = async (
  ctx: SigningKeyContext,
  origin: RequestOrigin,
): Promise<{ kid: string; retired: string | null }> => {
  const events = await run(ctx, origin, (key, now) => ({ type: 'rotate-signing-key', key, now }))
  const created = events.find((event) => event.type === 'signing-key.created')
  const retired = events.find((event) => event.type === 'signing-key.retired')
  if (!created) throw new Error('the rotation created no key')
  return { kid: created.data.kid, retired: retired?.data.kid ?? null }
}

/// The key set as this process uses it: the keys read once from the `jwks` read model, the signing
/// ones opened once and imported once (by the signer), kept in memory. Signing on get-session's hot
/// path then costs one signature: no query, no decryption, no key import.
///
/// The copy is refreshed when told (`refresh`: the projector applied a signing-key event, see
/// app/server/tessera.ts) and, in a process that does not project (`--role api`), every
/// `refreshIntervalMs`. A process whose copy is stale can sign with a key another one just retired,
/// for up to that interval; so a retired key stays published for the token lifetime plus
/// `STALE_KEY_GRACE_SECONDS`, and every token it signed can still be verified until it expires.

import { randomUUID } from 'node:crypto'
import type { JWK } from 'jose'
import { AUTH_ERRORS } from '../../domain/errors.js'
import type { RequestOrigin } from '../../domain/shared/metadata.js'
import type { CommandLookups } from '../../http/ports/command-lookups.js'
import type { JwtIssuer } from '../../http/ports/jwt-issuer.js'
import type { StoredSigningKey } from '../../http/ports/signing-key-lookup.js'
import { acceptedSecrets } from '../../infra/config/config.js'
import { FieldDecryptionError } from '../../infra/crypto/data-keys.js'
import { activeKey, needsRotation, type PublishedKey, publishedKeys } from '../../infra/crypto/jwt/key-set.js'
import { openPrivateKey } from '../../infra/crypto/jwt/sealed-key.js'
import { createJwtSigner } from '../../infra/crypto/jwt/signer.js'
import { isJwtAlgorithm, type PublicSigningKey, type SigningKey } from '../../infra/crypto/jwt/signing-key.js'
import type { CommandContext } from '../context.js'
import { ensureSigningKey, rotateSigningKey } from './signing-keys.js'

/** How often a `--role api` process re-reads the keys. */
export const KEY_REFRESH_INTERVAL_MS = 5000
/** How long a retired key is published beyond the token lifetime: the refresh interval above. */
export const STALE_KEY_GRACE_SECONDS = KEY_REFRESH_INTERVAL_MS / 1000

// From the first look on: our own key, or that of another process that won the race for the first
// key, is in the log and soon in the read model. A projector stopped or far behind (`--role api`
// beside a projector catching up) shows it later: the request is answered 503 READ_MODELS_BEHIND,
// never 500, and a later one signs once the key is projected.
const WAIT_FOR_KEY_MS = 5000
const WAIT_STEP_MS = 25

export type JwtKeySetOptions = {
  ctx: Pick<CommandContext, 'config' | 'handle' | 'clock'> & { lookups: Pick<CommandLookups, 'signingKeys'> }
  /** Re-read the keys this often; null when `refresh` is called on every signing-key event. */
  refreshIntervalMs: number | null
  logger: { error(obj: object, msg: string): void }
}

export type JwtKeySet = JwtIssuer & {
  /** The keys changed (a signing-key event was applied): re-read them before the next use. */
  refresh(): void
  /** Retires the current key and creates its successor; this process signs with it on return. */
  rotate(origin: RequestOrigin): Promise<{ kid: string; retired: string | null }>
  stop(): void
}

type Keys = {
  /** Every key's public half, retired ones included: what `/jwks` publishes from. */
  all: readonly PublicSigningKey[]
  /** The keys that are not retired, opened: what the signer signs with. */
  signing: readonly SigningKey[]
  /** A key that is not retired could not be opened: sealed under a secret no longer accepted. */
  lost: boolean
}

const systemOrigin = (): RequestOrigin => ({ requestId: randomUUID(), ip: null, userAgent: null })

export const createJwtKeySet = ({ ctx, refreshIntervalMs, logger }: JwtKeySetOptions): JwtKeySet => {
  const { config, lookups, clock } = ctx
  const { lifetimeSeconds, rotationIntervalSeconds } = config.jwt
  let keys: Keys | null = null
  let stale = true
  let loading: Promise<Keys> | null = null
  let ensuring: Promise<Keys> | null = null

  const toKeys = (rows: readonly StoredSigningKey[]): Keys => {
    const all = rows.map(publicKeyOf)
    const signing: SigningKey[] = []
    let lost = false
    for (const row of rows.filter((candidate) => candidate.retired_at === null)) {
      try {
        signing.push({ ...publicKeyOf(row), privateJwk: openKey(row) })
      } catch (error) {
        if (!(error instanceof FieldDecryptionError)) throw error
        // AUTH_SECRET was rotated and the secret that sealed it removed: it can only be replaced.
        logger.error({ kid: row.kid }, 'a JWT signing key is sealed under a secret no longer accepted')
        lost = true
      }
    }
    return { all, signing, lost }
  }

  // An accepted secret (current, or retired by a rotation) opens the sealed half.
  const openKey = (row: StoredSigningKey): JWK =>
    openPrivateKey(row.private_key, acceptedSecrets(config), row.kid)

  /** Reads the keys afresh; a read already running may predate the change, so it is not reused. */
  const reload = async (): Promise<Keys> => {
    if (loading) await loading.catch(() => undefined)
    if (!loading) {
      stale = false
      loading = lookups.signingKeys
        .all()
        .then((rows) => {
          keys = toKeys(rows)
          return keys
        })
        .catch((error: unknown) => {
          stale = true
          throw error
        })
        .finally(() => {
          loading = null
        })
    }
    return loading
  }

  const current = (): Keys | Promise<Keys> => (keys && !stale ? keys : reload())

  /**
   * Until a key (`kid`, or any) signs here, by `deadline`: after our own append, or while the key
   * of another process that won the race is being projected.
   */
  const untilSigning = async (deadline: number, kid?: string): Promise<Keys> => {
    for (;;) {
      const fresh = await reload()
      const signing = activeKey(fresh.signing, clock())
      if (signing && (kid === undefined || signing.kid === kid)) return fresh
      if (Date.now() >= deadline) throw AUTH_ERRORS.error('READ_MODELS_BEHIND')
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS))
    }
  }
  // The bound starts before the append: `handle` has already waited for the projector within it.
  const keyDeadline = () => Date.now() + WAIT_FOR_KEY_MS

  // One creation at a time in this process; across processes the store decides (see ensureSigningKey).
  const ensure = (): Promise<Keys> => {
    const deadline = keyDeadline()
    ensuring ??= ensureSigningKey(ctx, systemOrigin())
      .then(() => untilSigning(deadline))
      .finally(() => {
        ensuring = null
      })
    return ensuring
  }

  // One replacement at a time in this process: the successor of a key no accepted secret opens.
  let replacing: Promise<Keys> | null = null
  const replaceLost = (): Promise<Keys> => {
    const deadline = keyDeadline()
    replacing ??= rotateSigningKey(ctx, systemOrigin())
      .then((rotated) => untilSigning(deadline, rotated.kid))
      .finally(() => {
        replacing = null
      })
    return replacing
  }

  /** The keys, with a key that signs now: created first if there is none, rotated if it is due. */
  const ready = async (): Promise<Keys> => {
    const now = clock()
    const known = await current()
    if (known.lost && !activeKey(known.signing, now)) return replaceLost()
    if (!needsRotation(known.all, now, rotationIntervalSeconds)) return known
    if (!activeKey(known.signing, now)) return ensure()
    // Due by age: the current key keeps signing while its successor is made.
    ensure().catch((error: unknown) => logger.error({ err: error }, 'JWT key rotation failed'))
    return known
  }

  // The published set, the same objects until the keys change or a retired key leaves it: a
  // resource server's introspection verifies against it on every call (oauth-provider/access-tokens.ts).
  let published: { from: readonly PublicSigningKey[]; until: number; set: { keys: PublishedKey[] } } | null =
    null

  const recentTokens = recentTokenCache()
  const signer = createJwtSigner(() => keys?.signing ?? [], {
    issuer: config.baseUrl,
    audience: config.baseUrl,
    lifetimeSeconds,
  })

  const timer =
    refreshIntervalMs === null
      ? null
      : setInterval(() => {
          // In the background: requests keep signing with the copy they have meanwhile.
          reload().catch((error: unknown) => logger.error({ err: error }, 'reading the JWT keys failed'))
        }, refreshIntervalMs)
  timer?.unref()

  return {
    async tokenFor(user) {
      const known = await ready()
      const now = clock()
      const kid = activeKey(known.signing, now)?.kid ?? ''
      return recentTokens.get(`${kid}|${JSON.stringify(user)}`, now, () => signer.sign(user, user.id, now))
    },
    async signClaims(claims, typ) {
      await ready()
      return signer.signClaims(claims, clock(), typ)
    },
    async publicKeySet() {
      const { all } = await ready()
      const now = clock()
      if (published?.from === all && now.getTime() < published.until) return published.set
      const tokenLifetimeSeconds = lifetimeSeconds + STALE_KEY_GRACE_SECONDS
      const set = publishedKeys(all, now, tokenLifetimeSeconds)
      published = { from: all, until: nextUnpublished(all, now, tokenLifetimeSeconds), set }
      return set
    },
    refresh() {
      stale = true
    },
    async rotate(origin) {
      const rotated = await rotateSigningKey(ctx, origin)
      await untilSigning(keyDeadline(), rotated.kid)
      return rotated
    },
    stop() {
      if (timer) clearInterval(timer)
    },
  }
}

const publicKeyOf = (row: StoredSigningKey): PublicSigningKey => {
  if (!isJwtAlgorithm(row.alg)) throw new Error(`signing key ${row.kid} has an unknown algorithm ${row.alg}`)
  return {
    kid: row.kid,
    alg: row.alg,
    publicJwk: JSON.parse(row.public_key) as JWK,
    createdAt: row.created_at,
    retiredAt: row.retired_at,
  }
}

/** How long a signed token is handed out again for the same claims and key (see recentTokenCache). */
const TOKEN_REUSE_MS = 30_000
const MAX_RECENT_TOKENS = 10_000

/**
 * get-session sends a JWT on every answer: signing each time cost about 40% of its throughput when
 * tokens were signed with Web Crypto on the thread pool (signer.ts now signs on the event loop).
 * A token signed for exactly the same claims under the same key within the last 30 s is handed out
 * again instead; its expiry is then at most 30 s nearer than a fresh one's, which no client can tell
 * from clock skew. A change of any claim (the user's `updatedAt` among them) or of the signing key
 * makes a new token at once.
 */
const recentTokenCache = () => {
  const tokens = new Map<string, { token: Promise<string>; signedAt: number }>()
  return {
    get(key: string, now: Date, sign: () => Promise<string>): Promise<string> {
      const recent = tokens.get(key)
      if (recent && now.getTime() - recent.signedAt < TOKEN_REUSE_MS && now.getTime() >= recent.signedAt)
        return recent.token
      const token = sign()
      // A failed signature is not remembered.
      token.catch(() => tokens.delete(key))
      tokens.delete(key)
      if (tokens.size >= MAX_RECENT_TOKENS) {
        const oldest = tokens.keys().next().value
        if (oldest !== undefined) tokens.delete(oldest)
      }
      tokens.set(key, { token, signedAt: now.getTime() })
      return token
    },
  }
}

/** When the next retired key leaves the published set (publishedKeys); Infinity if none will. */
const nextUnpublished = (
  keys: readonly PublicSigningKey[],
  now: Date,
  tokenLifetimeSeconds: number,
): number =>
  Math.min(
    ...keys
      .filter((key) => key.retiredAt != null)
      .map((key) => (key.retiredAt as Date).getTime() + tokenLifetimeSeconds * 1000)
      .filter((leaves) => leaves > now.getTime()),
    Number.POSITIVE_INFINITY,
  )

/// The environment variables Tessera reads, each declared once: its name, what it means and how it
/// reads when unset. config.ts may read only a declared name (`EnvVariable`), takes a variable's
/// fallback from here, and README's table is written from this list (`npm run docs:config`;
/// options-table.unit.spec.ts fails when they differ).

type EnvironmentRow = {
  /** The row's variables, each with the value used when it is unset (null: none; the parser decides). */
  variables: Record<string, string | null>
  meaning: string
  /** How the default reads in README when it is not just the fallbacks. */
  unset?: string
}

export const ENVIRONMENT = [
  {
    variables: { PORT: '3000', HOST: '127.0.0.1' },
    meaning: 'where the server listens',
  },
  {
    variables: { NODE_ENV: null },
    meaning:
      '`production` asks for what a deployment needs: `AUTH_SECRET` and a mail transport become required, rate limits are on unless `RATE_LIMIT=off`, and a `BASE_URL` that is not https is warned about',
    unset: 'not production',
  },
  {
    variables: { BASE_URL: null },
    meaning: 'public base URL; mail links and cookie security derive from it',
    unset: '`http://localhost:$PORT`',
  },
  {
    variables: { AUTH_SECRET: null },
    meaning: 'signing and encryption secret; required (32+ characters) when `NODE_ENV=production`',
    unset: 'a public development secret, with a loud warning',
  },
  {
    variables: { AUTH_SECRET_PREVIOUS: null },
    meaning:
      'comma-separated secrets a rotation retired: cookies, links and tokens they signed keep working and keys wrapped under them still open (re-wrapped under `AUTH_SECRET` on use and by `tessera rotate-secret`); remove one once what it signed has expired (docs/architecture.md, "Secrets and rotation")',
    unset: 'none',
  },
  {
    variables: { DATABASE_URL: null },
    meaning: 'PostgreSQL for the event log and read models',
    unset: 'unset: embedded PGlite in `$DATA_DIR`',
  },
  {
    variables: { DATABASE_PREPARED_STATEMENTS: 'on' },
    meaning:
      '`on` or `off`: send the statements whose result cannot change shape (no `*`) as named prepared statements, parsed and planned once per connection; `off` behind a pooler that cannot keep them (PgBouncer in transaction mode without `max_prepared_statements`)',
  },
  {
    variables: { DATA_DIR: './data' },
    meaning: 'where embedded data lives',
  },
  {
    variables: { REDIS_URL: null },
    meaning: 'rate-limit store shared by instances',
    unset: 'unset: in memory',
  },
  {
    variables: { SMTP_URL: null, MAIL_FROM: 'Tessera <no-reply@localhost>' },
    meaning: 'SMTP transport (`smtp://user:pass@host:port`) and sender',
    unset:
      'unset: mails are printed to the log; required when `NODE_ENV=production` (one of the two); the sender `Tessera <no-reply@localhost>`',
  },
  {
    variables: { MAIL_HTTP_URL: null, MAIL_HTTP_API_KEY: null },
    meaning: 'an HTTP mail provider (Resend-style JSON API) instead of SMTP',
    unset: 'unset',
  },
  {
    variables: { TRUSTED_ORIGINS: null },
    meaning: 'extra trusted origins, comma separated (`https://*.example.com` allowed)',
    unset: "`BASE_URL`'s origin only",
  },
  {
    variables: { RATE_LIMIT: null },
    meaning:
      '`on` or `off`: 3 per 10 s per IP on sign-in, sign-up, credential changes and every route that sends mail (the two reset routes share one bucket), plus 5 mails per 15 min to any one address whatever the IP; with `REDIS_URL`, a Redis outage falls back to counting in memory',
    unset: '`on` in production, `off` otherwise',
  },
  {
    variables: { TRUST_PROXY: null },
    meaning:
      'proxies to believe about the client IP (`X-Forwarded-For`): `true`, a hop count, or addresses/CIDRs',
    unset: 'unset: the socket address is the client',
  },
  {
    variables: { PLACE_COUNTRY_HEADER: null, PLACE_CITY_HEADER: null },
    meaning:
      "headers in which your proxy or CDN says where it placed the client's IP, recorded with each session and shown on the Security and Activity pages: Cloudflare `CF-IPCountry` (and `CF-IPCity` with its location headers on), Vercel `X-Vercel-IP-Country` and `X-Vercel-IP-City`, CloudFront `CloudFront-Viewer-Country` and `CloudFront-Viewer-City`. Believed only on requests whose address came from a `TRUST_PROXY` proxy, which must set or strip these headers itself",
    unset: 'unset: places are not recorded (Tessera has no GeoIP database)',
  },
  {
    variables: { EVENT_STORE: 'postgres' },
    meaning:
      '`postgres` (the SQL log, in PostgreSQL or the embedded database) or `kurrentdb` (the log in KurrentDB; read models, checkpoints and data keys stay in PostgreSQL or PGlite). The KurrentDB adapter is **experimental: it has not yet run against a real KurrentDB server** in this project\'s tests (its logic passes the event-store contract over an in-memory log; the same suite runs against a server where Docker or `KURRENTDB_URL` is available), and the start says so. `tessera export`/`import` refuse it for now (docs/architecture.md, "KurrentDB")',
  },
  {
    variables: { KURRENTDB_URL: null },
    meaning:
      'with `EVENT_STORE=kurrentdb`: the KurrentDB connection string (`kurrentdb://host:2113?tls=false`, `kurrentdb+discover://user:pass@cluster:2113`); a bad string or a server that does not answer within 5 s stops the start with a message naming it. `docker compose --profile kurrentdb up` runs one node',
    unset: 'unset',
  },
  {
    variables: { LOG_LEVEL: 'info' },
    meaning: 'pino level',
  },
  {
    variables: { READ_YOUR_WRITES_TIMEOUT_MS: '5000' },
    meaning:
      'how long one request waits for the read models to show its writes before answering 503 `READ_MODELS_BEHIND`',
  },
  {
    variables: { PROJECTOR_MAX_ATTEMPTS: '5' },
    meaning: 'failures on one event before the projector halts (see `tessera projections status|retry|skip`)',
  },
  {
    variables: { PROJECTOR_CATCH_UP_SHARE: '5' },
    meaning:
      'the percent of its full pace a `--role projector` more than 5,000 events behind keeps while others keep PostgreSQL busy (from 1,000 transactions a second; full pace under 100, a straight line between), so that the servers beside it answer as fast as before; `100`: never slowed, the backlog applied sooner and commands waiting on it answered sooner',
  },
  {
    variables: { READY_MAX_LAG_SECONDS: '30' },
    meaning: '`GET /api/auth/ready` answers 503 when the oldest unapplied event is older than this',
  },
  {
    variables: { SERVER_KEYS: null },
    meaning:
      'the application backends allowed to call the server API: `name=key` pairs, comma separated, each key 32+ characters (`openssl rand -base64 36`). Each key has its own rate limit, whatever `RATE_LIMIT` says: `"serverApi": { "rateLimit": { "window": 10, "max": 200000 } }` in `tessera.config.json` (calls per key per `window` seconds; these are the defaults), then 429 `TOO_MANY_REQUESTS` with `X-Retry-After`; an address that sent 10 wrong keys within a minute is refused (429) even with a right one. With `REDIS_URL`, all instances share these counts (one more Redis connection per instance) and a Redis outage falls back to counting in memory',
    unset: 'unset: the server API refuses every call',
  },
  {
    variables: { ADMIN_EMAILS: null },
    meaning:
      'addresses (comma separated) whose accounts get the `admin` role once the address is verified; a later demotion stands',
    unset: 'none',
  },
  {
    variables: { TESSERA_CONFIG: null },
    meaning: 'path of the feature options file (below)',
    unset: '`tessera.config.json` in the working directory, if there is one',
  },
] as const satisfies readonly EnvironmentRow[]

type KeysOf<T> = T extends unknown ? keyof T : never

/** A name config.ts may read: one declared above. */
export type EnvVariable = KeysOf<(typeof ENVIRONMENT)[number]['variables']>

const FALLBACKS: ReadonlyMap<string, string | null> = new Map(
  ENVIRONMENT.flatMap((row) => Object.entries(row.variables as Record<string, string | null>)),
)

type WithFallback<T> = T extends unknown
  ? { [K in keyof T]: T[K] extends string ? K : never }[keyof T]
  : never

/** A declared name with a fallback: reading it always gives a value. */
export type DefaultedVariable = WithFallback<(typeof ENVIRONMENT)[number]['variables']>

/** The value a variable takes when it is unset. */
export const fallbackOf = (name: DefaultedVariable): string => {
  const fallback = FALLBACKS.get(name)
  if (typeof fallback !== 'string') throw new Error(`${name} is declared without a fallback`)
  return fallback
}

const cell = (text: string) => text.replaceAll('|', '\\|')

/** README's table of environment variables, header included. */
export const environmentTable = (): string =>
  [
    '| variable | meaning | default |',
    '|---|---|---|',
    ...ENVIRONMENT.map((row: EnvironmentRow) => {
      const entries = Object.entries(row.variables)
      const names = entries.map(([name]) => `\`${name}\``).join(', ')
      const fallbacks = entries.map(([, value]) => `\`${value}\``).join(', ')
      return `| ${names} | ${cell(row.meaning)} | ${cell(row.unset ?? fallbacks)} |`
    }),
  ].join('\n')

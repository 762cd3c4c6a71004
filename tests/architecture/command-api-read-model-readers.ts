/// The command-api files that still read a read model directly (import `projections/`), named one
/// by one. The table's rule is that command-api reaches read models only through ports on its
/// context (http/ports/command-lookups.ts, implemented in app/server/command-lookups.ts); these
/// files predate it. The list may only shrink: the layer test fails on a command-api file that
/// imports projections/ and is not listed, and on a listed file that no longer does (remove it).
///
/// Left when the list was made: the OAuth provider, SCIM, SSO (OIDC and SAML), two-factor and
/// webhooks folders, which other work had in hand at the time; and `context.ts`, which still
/// carries the read-model database (`db`) for them and for the http/ guards. SSO, SAML and webhooks
/// have since moved onto ports (`lookups.ssoProviders`, `lookups.webhooks`), and so have two-factor
/// (`lookups.users`) and the OAuth provider's clients, consents and grants (`lookups.oauthClients`);
/// left there: the client-owner query and the provider cache (which holds the database for its
/// revocation checks).

export const COMMAND_API_READ_MODEL_READERS: ReadonlySet<string> = new Set([
  'command-api/context.ts',
  'command-api/oauth-provider/client-owner.ts',
  // Written beside the list, in the same session: the cache of clients and live token origins.
  'command-api/oauth-provider/provider-cache.ts',
  'command-api/scim/refuse-deactivated.ts',
  'command-api/scim/scim-credentials.ts',
  'command-api/scim/scim-groups.routes.ts',
  'command-api/scim/scim-groups.ts',
  'command-api/scim/scim-users.ts',
])

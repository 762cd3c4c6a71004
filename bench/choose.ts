/// Which scenarios `BENCH_ONLY` picks: each entry is a scenario name prefix (spaces or dashes
/// alike, `sign-in-c16` = `sign-in c16`) or a group's name (`factors`, `oauth`, `scim`, `passkey`,
/// `webhooks`), which picks all of that group's scenarios. Nothing given picks everything.

/** `BENCH_ONLY=sign-in-c16` and `BENCH_ONLY='sign-in c16'` mean the same. */
export const slug = (name: string) => name.trim().replace(/\s+/g, '-')

/** The comma-separated entries of `BENCH_ONLY`, blanks dropped. */
export const parseOnly = (raw: string | undefined): string[] =>
  (raw ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)

export type Choosable = { readonly group?: string | undefined; readonly names: readonly string[] }

/** True when `name`, of a group named `group`, is picked by `only`. */
export const isChosen = (name: string, only: readonly string[], group?: string): boolean =>
  only.length === 0 ||
  only.some((entry) => (group !== undefined && slug(entry) === group) || slug(name).startsWith(slug(entry)))

/** The names of a group's scenarios that `only` picks, in their order. */
export const chosenNames = (choosable: Choosable, only: readonly string[]): string[] =>
  choosable.names.filter((name) => isChosen(name, only, choosable.group))

/** Entries that pick nothing at all: a typo should fail before a minute of seeding. */
export const unmatchedEntries = (groups: readonly Choosable[], only: readonly string[]): string[] =>
  only.filter((entry) => !groups.some((g) => chosenNames(g, [entry]).length > 0))

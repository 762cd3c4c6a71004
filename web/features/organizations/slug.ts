/// Organization slugs: what the portal suggests from a name and checks before asking the server.
/// The server only requires a non-empty slug (better-auth); the portal keeps to what reads well in
/// an address: lowercase letters, digits and single dashes.

export const SLUG_MAX = 48
export const NAME_MAX = 100

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** "Ada's Analytical Engines, Ltd." → "adas-analytical-engines-ltd". */
export const slugify = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/g, '')

/** A message when the slug breaks the rules, null when it is fine. */
export const checkSlug = (slug: string): string | null => {
  if (slug.trim() === '') return 'Enter a slug.'
  if (!SLUG.test(slug)) return 'Use lowercase letters, digits and single dashes (for example acme-labs).'
  return null
}

/// Text that someone else chose (an organization's name, an inviter's name), shown in a mail to
/// an address that never asked for it. Mail clients turn anything that looks like a URL into a
/// link, in the subject and the plain text alike, so a name such as `Free prizes at
/// https://evil.example` would make our own invitation carry a phisher's link. Such a name is
/// shown quoted, on one line, with the schemes and dots of URL-like runs neutralised
/// (`https[:]//evil[.]example`): still readable, never a link.

/** Longest name shown; the rest is cut with an ellipsis. */
const MAX_SHOWN = 100

// A run without spaces that a mail client could read as an address: a scheme, `www.`, or a dot
// between a letter or digit and two or more letters (`evil.example`, `a.b.co`).
const URL_LIKE = /^(?:[a-z][a-z0-9+.-]*:.|www\.)|[a-z0-9-]\.[a-z]{2,}/i

const neutralise = (run: string): string =>
  URL_LIKE.test(run) ? run.replaceAll(':', '[:]').replaceAll('.', '[.]') : run

/** `name` ready for a mail's subject or text: one line, quoted, no link in it. */
export const shownName = (name: string): string => {
  // Control and format characters (line breaks, bidi overrides) have no place in a name.
  const line = name
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  const cut = [...line].length > MAX_SHOWN ? `${[...line].slice(0, MAX_SHOWN - 1).join('')}…` : line
  return `“${cut.split(' ').map(neutralise).join(' ')}”`
}

/// Cookies as a browser would send them back: the `name=value` of each `set-cookie` in an answer.

/** autocannon hands a repeated header over as an array; fetch's Headers as `getSetCookie()`. */
export const cookieHeaderOf = (setCookie: string | readonly string[] | undefined): string =>
  (typeof setCookie === 'string' ? [setCookie] : (setCookie ?? []))
    .map((header) => header.split(';', 1)[0] ?? '')
    .filter((pair) => pair.includes('=') && !pair.endsWith('='))
    .join('; ')

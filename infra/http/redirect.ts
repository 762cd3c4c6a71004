/// Adds query parameters to a callback URL (relative or absolute) without disturbing the rest.

const PLACEHOLDER_ORIGIN = 'http://relative.invalid'

export const withQuery = (url: string, params: Record<string, string>): string => {
  const parsed = new URL(url, PLACEHOLDER_ORIGIN)
  for (const [key, value] of Object.entries(params)) parsed.searchParams.set(key, value)
  return parsed.origin === PLACEHOLDER_ORIGIN
    ? `${parsed.pathname}${parsed.search}${parsed.hash}`
    : parsed.toString()
}

/** Whether the request came from a browser navigating (a link in a mail), not an API client. */
export const acceptsHtml = (request: { headers: { accept?: string | undefined } }): boolean =>
  /\btext\/html\b/.test(request.headers.accept ?? '')

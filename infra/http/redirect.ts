/// Adds query parameters to a callback URL (relative or absolute) without disturbing the rest.

const PLACEHOLDER_ORIGIN = 'http://relative.invalid'

export const withQuery = (url: string, params: Record<string, string>): string => {
  const parsed = new URL(url, PLACEHOLDER_ORIGIN)
  for (const [key, value] of Object.entries(params)) parsed.searchParams.set(key, value)
  return parsed.origin === PLACEHOLDER_ORIGIN
    ? `${parsed.pathname}${parsed.search}${parsed.hash}`
    : parsed.toString()
}

/// Where a device was, in words: "Berlin, Germany". The server records the country as an ISO 3166-1
/// code and the city as the operator's proxy named it (only when one did); the country's name comes
/// from the browser, in the page's language.

export type Place = { country?: string | null; city?: string | null }

let regions: Intl.DisplayNames | undefined

const countryName = (code: string): string | null => {
  regions ??= new Intl.DisplayNames([document.documentElement.lang || 'en'], {
    type: 'region',
    fallback: 'none',
  })
  try {
    return regions.of(code.toUpperCase()) ?? null
  } catch {
    // Not a region code at all (RangeError): say nothing rather than show a code.
    return null
  }
}

/** "Berlin, Germany", "Germany" or "Berlin"; null when the place is unknown. */
export const placeName = ({ country, city }: Place): string | null => {
  const parts = [city || null, country ? countryName(country) : null].filter(
    (part): part is string => part !== null,
  )
  return parts.length > 0 ? parts.join(', ') : null
}

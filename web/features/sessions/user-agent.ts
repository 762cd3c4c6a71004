/// A person recognises "Firefox on Windows", not a User-Agent header. Only the browser and the
/// operating system are named: versions and device models add noise and fingerprinting detail.

type Rule = readonly [pattern: RegExp, name: string]

// Order matters: most browsers claim to be others too (Edge says Chrome and Safari, Chrome says
// Safari), so the more specific tokens are tried first.
const BROWSERS: readonly Rule[] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\bYaBrowser\//, 'Yandex Browser'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bHeadlessChrome\//, 'Headless Chrome'],
  [/\bChromium\//, 'Chromium'],
  [/\bChrome\/|\bCriOS\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\/|\bMobile\/\w+ Safari\//, 'Safari'],
  [/^curl\//, 'curl'],
  [/^Wget\//, 'Wget'],
  [/^(node|undici|node-fetch)\b/i, 'Node.js'],
  [/^python-requests\//, 'Python Requests'],
  [/^okhttp\//, 'OkHttp'],
]

const SYSTEMS: readonly Rule[] = [
  [/\bWindows\b/, 'Windows'],
  [/\bAndroid\b/, 'Android'],
  [/\b(iPhone|iPod)\b/, 'iOS'],
  [/\biPad\b/, 'iPadOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bUbuntu\b/, 'Ubuntu'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
]

const firstMatch = (rules: readonly Rule[], userAgent: string): string | null =>
  rules.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null

export type Device = { browser: string | null; os: string | null }

export const parseUserAgent = (userAgent: string | null | undefined): Device => {
  const text = userAgent?.trim() ?? ''
  if (text === '') return { browser: null, os: null }
  return { browser: firstMatch(BROWSERS, text), os: firstMatch(SYSTEMS, text) }
}

/** "Chrome on Linux", "Firefox", "Unknown browser on Android", or "Unknown device". */
export const describeUserAgent = (userAgent: string | null | undefined): string => {
  const { browser, os } = parseUserAgent(userAgent)
  if (browser && os) return `${browser} on ${os}`
  if (browser) return browser
  if (os) return `Unknown browser on ${os}`
  return 'Unknown device'
}

/// What the browser tests share: Debian's Chromium driven by playwright-core, the built portal,
/// a free loopback port, and screenshots kept as test artifacts.

import { execFileSync } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Browser, chromium, type Page } from 'playwright-core'

export const CHROMIUM_PATH = process.env.TEST_CHROMIUM || '/usr/bin/chromium'

/** Outside CI a missing Chromium skips the suite with a hint; in CI (`CI=true`) it fails the run. */
export const hasChromium = existsSync(CHROMIUM_PATH)
if (!hasChromium && isCi(process.env.CI))
  throw new Error(
    `CI: Chromium not found at ${CHROMIUM_PATH}, and the portal's end-to-end tests may not skip in CI. ` +
      'Run `bash scripts/test-deps.sh` (it installs it as root), or: sudo apt-get install -y chromium',
  )

function isCi(value: string | undefined): boolean {
  return value !== undefined && !['', '0', 'false'].includes(value.toLowerCase())
}

const root = fileURLToPath(new URL('../..', import.meta.url))
const portalDir = join(root, 'web', 'dist')
const artifactsDir = join(root, 'test-artifacts', 'e2e')

/** Headless and quiet: nothing may reach the network, only our loopback server. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  })

const newestIn = (dir: string, skip: readonly string[]): number => {
  let latest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      if (!skip.includes(entry.name)) latest = Math.max(latest, newestIn(path, skip))
    } else latest = Math.max(latest, statSync(path).mtimeMs)
  }
  return latest
}

const portalIsStale = (): boolean => {
  const stamp = join(portalDir, '.built')
  if (!existsSync(join(portalDir, 'index.html')) || !existsSync(stamp)) return true
  return newestIn(join(root, 'web'), ['node_modules', 'dist', 'test']) > statSync(stamp).mtimeMs
}

/**
 * Builds web/dist (through the same script as `npm start`) when its sources changed since, and
 * returns a private copy of it for this test file's server to serve. Other runs rebuild web/dist
 * whenever the portal's sources change, and a rebuild deletes the chunks an open page still loads:
 * served from the copy, a page keeps working until the file's tests end.
 */
export const ensurePortalBuilt = (): string => {
  if (portalIsStale()) buildPortal()
  const copy = mkdtempSync(join(tmpdir(), 'tessera-portal-'))
  cpSync(portalDir, copy, { recursive: true })
  process.once('exit', () => rmSync(copy, { recursive: true, force: true }))
  return copy
}

const buildPortal = (): void => {
  try {
    // The script builds the portal for production whatever NODE_ENV Vitest runs under.
    // The tests run the server from its sources, so its own build (tsc to dist/) is not needed here.
    execFileSync(process.execPath, [join(root, 'scripts', 'ensure-built.mjs'), '--portal-only'], {
      cwd: root,
      stdio: 'pipe',
    })
  } catch (error) {
    // tsc reports on stdout: without it the failure would say nothing useful.
    const output = (stream: string) =>
      error instanceof Error && stream in error ? String(Reflect.get(error, stream)) : ''
    throw new Error(
      `Building the portal failed (node scripts/ensure-built.mjs --portal-only):\n${output('stdout')}${output('stderr')}`,
    )
  }
}

/** A port nobody listens on right now, so BASE_URL can name the server before it starts. */
export { freePort } from '../support/free-port.js'

/** A full-page picture of the page, kept in test-artifacts/e2e (gitignored) for people to look at. */
export const screenshot = async (page: Page, name: string): Promise<void> => {
  mkdirSync(artifactsDir, { recursive: true })
  await page.screenshot({ path: join(artifactsDir, `${name}.png`), fullPage: true })
}

const axeSource = join(root, 'node_modules', 'axe-core', 'axe.min.js')

type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }

/**
 * Runs axe-core (every rule it has, WCAG 2.2 A/AA and best practices) on the page as it is now;
 * returns the violations as readable lines, empty when there are none.
 */
export const axeViolations = async (page: Page): Promise<string[]> => {
  // Evaluated through the DevTools protocol rather than added as a <script>: the portal's
  // Content-Security-Policy (script-src 'self') rightly refuses an inline script tag.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(readFileSync(axeSource, 'utf8'))
  const violations = await page.evaluate(async () => {
    const axe = Reflect.get(window, 'axe') as {
      run: (context: Document) => Promise<{ violations: unknown[] }>
    }
    return (await axe.run(document)).violations
  })
  return (violations as AxeViolation[]).map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes
        .map((node) => JSON.stringify(node.target))
        .join(', ')}`,
  )
}

export const WIDTHS = [1280, 375] as const

/**
 * Screenshots of the page at each width (test-artifacts/e2e/<name>-<width>.png), once its fonts
 * are in; returns the widths at which the page scrolled sideways.
 */
export const screenshotWidths = async (page: Page, name: string): Promise<number[]> => {
  const original = page.viewportSize() ?? { width: 1280, height: 800 }
  const overflowing: number[] = []
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 })
    await page.evaluate(() => document.fonts.ready.then(() => undefined))
    const scrollWidth = await page.evaluate(() => document.scrollingElement?.scrollWidth ?? 0)
    if (scrollWidth > width) overflowing.push(width)
    await screenshot(page, `${name}-${width}`)
  }
  await page.setViewportSize(original)
  return overflowing
}

/**
 * The page as it is now, checked and pictured in both colour schemes: axe violations and sideways
 * scrolling per scheme (empty when none), screenshots as <name>-<width>.png and
 * dark-<name>-<width>.png. The page is left in the light scheme.
 */
export const checkBothSchemes = async (
  page: Page,
  name: string,
): Promise<{ axe: Record<string, string[]>; overflow: Record<string, number[]> }> => {
  const axe: Record<string, string[]> = {}
  const overflow: Record<string, number[]> = {}
  try {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      // Colours change through CSS transitions (buttons): axe must read them once they have ended.
      // (Transitions only: a loading shimmer or spinner never finishes.)
      await page.evaluate(() =>
        Promise.all(
          document
            .getAnimations()
            .filter((animation) => animation instanceof CSSTransition)
            .map((animation) => animation.finished.catch(() => undefined)),
        ),
      )
      const shot = scheme === 'dark' ? `dark-${name}` : name
      const violations = await axeViolations(page)
      const widths = await screenshotWidths(page, shot)
      if (violations.length > 0) axe[scheme] = violations
      if (widths.length > 0) overflow[scheme] = widths
    }
  } finally {
    await page.emulateMedia({ colorScheme: 'light' })
  }
  return { axe, overflow }
}

/// Small questions to ask a page in the portal's terms: roles, labels, live regions, focus.

import type { Locator, Page } from 'playwright-core'

/** Waits for a live-region message (role status or alert) that contains the text. */
export const announced = (within: Page | Locator, role: 'status' | 'alert', text: string): Promise<void> =>
  within.getByRole(role).filter({ hasText: text }).waitFor()

/** How wide the document is: more than the viewport means a sideways scroll bar. */
export const scrollWidth = (page: Page): Promise<number> =>
  page.evaluate(() => document.scrollingElement?.scrollWidth ?? Number.NaN)

/** Follows a link of the account navigation, as a person would (no reload: the store is kept). */
export const openNav = async (
  page: Page,
  name: 'Profile' | 'Email' | 'Password' | 'Security' | 'Activity',
): Promise<void> => {
  await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name }).click()
  await page.waitForURL(name === 'Profile' ? '**/account' : `**/account/${name.toLowerCase()}`)
  await page.getByRole('heading', { name, level: 1 }).waitFor()
}

/** Presses Tab until the element has focus; false when it never gets it. */
export const tabUntilFocused = async (page: Page, target: Locator): Promise<boolean> => {
  for (let presses = 0; presses < 15; presses++) {
    await page.keyboard.press('Tab')
    if (await target.evaluate((element) => element === document.activeElement)) return true
  }
  return false
}

/** The focused element's outline style ('none' when focus would be invisible). */
export const focusRing = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const focused = document.activeElement
    return focused ? getComputedStyle(focused).outlineStyle : 'none'
  })

/** One stop of a keyboard walk: what took focus, and whether a person could see that it did. */
export type FocusStop = { name: string; ringVisible: boolean }

/** What a keyboard can reach: enabled, rendered, not taken out of the order, one radio per group. */
const markReachable = (page: Page): Promise<string[]> =>
  page.evaluate(() => {
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex]:not([tabindex="-1"])'
    const radioGroups = new Set<string>()
    const reachable: string[] = []
    for (const element of document.querySelectorAll<HTMLElement>('[data-walk]')) delete element.dataset.walk
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      if (element.matches(':disabled') || element.closest('[inert]') || element.hidden) continue
      if (!element.checkVisibility({ visibilityProperty: true })) continue
      if (element.tabIndex < 0) continue
      if (element instanceof HTMLInputElement && element.type === 'radio') {
        const group = element.name || element.id
        const checked = document.querySelector(`input[type="radio"][name="${group}"]:checked`)
        if (radioGroups.has(group) || (checked && checked !== element)) continue
        radioGroups.add(group)
      }
      element.dataset.walk = String(reachable.length)
      reachable.push(element.outerHTML.slice(0, 100))
    }
    return reachable
  })

const focusedStop = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null
    if (!element || element === document.body || element.dataset.walk === undefined) return null
    const style = getComputedStyle(element)
    const ringVisible =
      element.matches(':focus-visible') &&
      ((style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2) ||
        style.boxShadow !== 'none')
    const label = element instanceof HTMLInputElement ? element.labels?.[0]?.textContent : null
    const name =
      element.getAttribute('aria-label') ?? label ?? element.textContent?.trim().replace(/\s+/g, ' ') ?? ''
    return {
      index: Number(element.dataset.walk),
      name: `${element.tagName.toLowerCase()} "${name}"`,
      ringVisible,
    }
  })

/**
 * Walks the whole page with Tab, then with Shift+Tab, and answers what a keyboard user met. The
 * walk passes when `missed` is empty (every focusable, visible element is reached, in document
 * order), `hidden` is empty (each stop shows a focus ring) and `backwards` is the reverse of
 * `forwards`. Positive tabindex, focus traps and invisible rings all show up here.
 */
export const walkFocusOrder = async (page: Page) => {
  const reachable = await markReachable(page)
  const total = reachable.length
  const walk = async (key: 'Tab' | 'Shift+Tab') => {
    const seen: number[] = []
    const names: string[] = []
    const hidden: string[] = []
    // Two rounds' worth of presses: the walk starts wherever focus is and must come round again.
    for (let press = 0; press < total * 2 + 6; press++) {
      await page.keyboard.press(key)
      const stop = await focusedStop(page)
      if (!stop) continue
      if (seen.includes(stop.index)) break
      seen.push(stop.index)
      names[stop.index] = stop.name
      if (!stop.ringVisible) hidden.push(stop.name)
    }
    // Rotate the cycle so that it starts at the first element of the document.
    const start = seen.indexOf(Math.min(...seen))
    return { order: [...seen.slice(start), ...seen.slice(0, start)], names, hidden }
  }
  const forwards = await walk('Tab')
  const backwards = await walk('Shift+Tab')
  // The backward walk stops one short of where it began: one Tab puts focus back there.
  await page.keyboard.press('Tab')
  const expected = Array.from({ length: total }, (_, index) => index)
  return {
    forwards: forwards.order,
    // Shift+Tab from the first element goes to the last: reversed, the cycle reads as the forward one.
    backwards: [backwards.order[0] ?? -1, ...backwards.order.slice(1).reverse()],
    missed: expected.filter((index) => !forwards.order.includes(index)),
    outOfOrder: forwards.order.some((index, position) => index !== position),
    hidden: [...new Set([...forwards.hidden, ...backwards.hidden])],
    names: reachable.map((html, index) => forwards.names[index] ?? html),
    total,
  }
}

/** Expectation-ready summary: a walk whose every part is right reads `{ total, ok: true }`. */
export const keyboardReport = async (page: Page) => {
  const walk = await walkFocusOrder(page)
  const problems = {
    missed: walk.missed.map((index) => walk.names[index] ?? `#${index}`),
    outOfOrder: walk.outOfOrder ? walk.forwards.map((index) => walk.names[index] ?? `#${index}`) : [],
    noRing: walk.hidden,
    shiftTabDiffers: walk.backwards.join() !== walk.forwards.join(),
  }
  const ok =
    problems.missed.length === 0 &&
    problems.outOfOrder.length === 0 &&
    problems.noRing.length === 0 &&
    !problems.shiftTabDiffers
  return ok ? { total: walk.total, ok } : { total: walk.total, ok, ...problems }
}

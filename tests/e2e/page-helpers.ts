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

import { type RefObject, useEffect, useRef } from 'react'

/**
 * On a phone a navigation strip scrolls sideways: keep its open entry (`aria-current="page"`) in
 * sight by scrolling the strip, not the page, once each time another entry opens or the open one
 * first appears. Without it an entry past the edge is open but unseen.
 */
export const useOpenTabInSight = (strip: RefObject<HTMLElement | null>): void => {
  const inSight = useRef<Element | null>(null)
  useEffect(() => {
    const current = strip.current?.querySelector('[aria-current="page"]') ?? null
    if (!strip.current || !current || current === inSight.current) return
    inSight.current = current
    const box = strip.current.getBoundingClientRect()
    const tab = current.getBoundingClientRect()
    if (tab.left < box.left) strip.current.scrollLeft -= box.left - tab.left
    else if (tab.right > box.right) strip.current.scrollLeft += tab.right - box.right
  })
}

import { useLayoutEffect, useRef, useState } from 'react'

/**
 * One line of text cut with an ellipsis when it does not fit. Cut text shows whole on hover
 * (title and a tooltip) and on keyboard focus: only then is it focusable, so Tab skips it otherwise.
 */
export const Truncate = ({ text }: { text: string }) => {
  const ref = useRef<HTMLSpanElement>(null)
  const [cut, setCut] = useState(false)

  useLayoutEffect(() => {
    const element = ref.current
    if (!element || typeof ResizeObserver === 'undefined') return
    const measure = () => setCut(element.scrollWidth > element.clientWidth)
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    return () => observer.disconnect()
  }, [])

  return (
    <span className="truncate" data-truncated={cut} title={cut ? text : undefined}>
      <span ref={ref} className="truncate-text" tabIndex={cut ? 0 : undefined}>
        {text}
      </span>
      {cut ? (
        <span className="truncate-full" aria-hidden="true">
          {text}
        </span>
      ) : null}
    </span>
  )
}

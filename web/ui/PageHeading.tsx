import { type ReactNode, useEffect, useRef } from 'react'
import { tabTitle as titled } from './branding.js'

// The first heading of a page load is where the browser already starts reading; every later one
// comes from a client-side change of page (or of a page's state), where focus would otherwise stay
// on a link that is gone or drop to <body>.
let firstHeadingShown = false

/** Test hook: make the next heading behave as the first of a page load. */
export const resetHeadingFocus = () => {
  firstHeadingShown = false
}

type Props = {
  title: string
  /** The tab title, when it should differ from the heading. */
  documentTitle?: string
  description?: ReactNode
}

/**
 * The page's h1 and the tab's title. After a client-side navigation the heading takes focus
 * (tabIndex -1), so screen readers announce the new page and Tab continues from its top.
 */
export const PageHeading = ({ title, documentTitle, description }: Props) => {
  const ref = useRef<HTMLHeadingElement>(null)
  const tabTitle = documentTitle ?? title

  useEffect(() => {
    document.title = titled(tabTitle)
  }, [tabTitle])

  useEffect(() => {
    if (firstHeadingShown) ref.current?.focus()
    firstHeadingShown = true
  }, [])

  return (
    <div className="page-header">
      <h1 ref={ref} tabIndex={-1}>
        {title}
      </h1>
      {description ? <p>{description}</p> : null}
    </div>
  )
}

import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react'
import { matchPath, NavLink, useLocation } from 'react-router'
import { Icon, type IconName } from '../ui/icons.js'

export type Section = { to: string; label: string; icon: IconName; end?: boolean }
/** Sections under a heading of their own (the operator console), after the account's. */
export type SectionGroup = { heading: string; sections: readonly Section[] }

/** The section the address is in: the longest entry that matches (so `/account` is not every page's). */
export const currentSection = (sections: readonly Section[], pathname: string): Section | undefined =>
  sections
    .filter((section) => matchPath({ path: section.to, end: section.end ?? true }, pathname))
    .sort((a, b) => b.to.length - a.to.length)[0]

/**
 * The account's sections. On a wide screen a side column; on a phone one button naming the open
 * section, which opens the list (a disclosure: aria-expanded, Escape closes it and gives the
 * focus back to the button, choosing a section closes it).
 */
export const SectionNav = ({
  label,
  sections,
  groups = [],
}: {
  label: string
  sections: readonly Section[]
  groups?: readonly SectionGroup[]
}) => {
  const { pathname } = useLocation()
  const [open, setOpen] = useState(false)
  const toggle = useRef<HTMLButtonElement>(null)
  const listId = useId()
  const current = currentSection([...sections, ...groups.flatMap((group) => group.sections)], pathname)
  // Another section opened (a link in the menu, or anywhere else): the menu has done its job.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each new address only
  useEffect(() => setOpen(false), [pathname])
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return
    setOpen(false)
    toggle.current?.focus()
  }
  return (
    <nav aria-label={label} className="side-nav" data-open={open} onKeyDown={onKeyDown}>
      <button
        ref={toggle}
        type="button"
        className="side-nav-toggle"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((was) => !was)}
      >
        {current ? <Icon name={current.icon} /> : null}
        <span className="side-nav-toggle-text">
          <span className="side-nav-toggle-label">Menu</span>{' '}
          <span className="side-nav-toggle-current">{current?.label ?? label}</span>
        </span>
        <Icon name="chevron-down" />
      </button>
      <div id={listId} className="side-nav-sections">
        <SectionList sections={sections} />
        {groups.map((group) => (
          <SectionGroupList key={group.heading} group={group} />
        ))}
      </div>
    </nav>
  )
}

const SectionList = ({ sections, labelledBy }: { sections: readonly Section[]; labelledBy?: string }) => (
  <ul aria-labelledby={labelledBy}>
    {sections.map((section) => (
      <li key={section.to}>
        <NavLink to={section.to} end={section.end ?? true}>
          <Icon name={section.icon} />
          {section.label}
        </NavLink>
      </li>
    ))}
  </ul>
)

const SectionGroupList = ({ group }: { group: SectionGroup }) => {
  const id = useId()
  return (
    <>
      <h2 id={id} className="side-nav-heading">
        {group.heading}
      </h2>
      <SectionList sections={group.sections} labelledBy={id} />
    </>
  )
}

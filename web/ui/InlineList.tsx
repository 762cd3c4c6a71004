import { Fragment } from 'react'

/**
 * Short facts on one line with a "·" between them ("Firefox on Linux · Berlin, Germany · 192.0.2.1").
 * Each fact is its own box, so a line breaks only between facts, and a separator never ends a line:
 * it belongs to the fact after it, and the one of a fact that opens a new line falls outside the box
 * and is cut off (see .inline-list in components.css). Screen readers skip the drawn separators and
 * read a hidden comma instead.
 */
export const InlineList = ({ items, className }: { items: readonly string[]; className?: string }) => (
  <span className={className ? `inline-list ${className}` : 'inline-list'}>
    {items.map((item, index) => (
      // Facts are plain strings that may repeat: their place is their identity.
      // biome-ignore lint/suspicious/noArrayIndexKey: the list is rebuilt whole, never reordered
      <Fragment key={index}>
        {/* Read (and copied) as a pause between facts; out of the flow, so it takes no room. */}
        {index > 0 ? <span className="visually-hidden">, </span> : null}
        <span className="inline-list-item">{item}</span>
      </Fragment>
    ))}
  </span>
)

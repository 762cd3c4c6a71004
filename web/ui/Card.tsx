import { type ReactNode, type Ref, useId } from 'react'

type Props = {
  title?: string
  /** One line under the title: what this card is for. */
  description?: ReactNode
  /** h2 by default; cards inside a section under an h2 use 3. */
  headingLevel?: 2 | 3
  tone?: 'default' | 'danger'
  /** Actions at the bottom, on a muted band (GitHub-style). */
  footer?: ReactNode
  children?: ReactNode
  className?: string
  /** For moving focus to the card (its heading) after what had focus inside it is gone. */
  headingRef?: Ref<HTMLHeadingElement>
}

/** A surface for one topic. With a title it is a labelled region of the page. */
export const Card = ({
  title,
  description,
  headingLevel = 2,
  tone = 'default',
  footer,
  children,
  className,
  headingRef,
}: Props) => {
  const headingId = useId()
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  const classes = ['card', tone === 'danger' ? 'card-danger' : null, className].filter(Boolean).join(' ')
  return (
    <section className={classes} aria-labelledby={title ? headingId : undefined}>
      {title ? (
        <div className="card-header">
          <Heading id={headingId} ref={headingRef} tabIndex={headingRef ? -1 : undefined}>
            {title}
          </Heading>
          {description ? <p>{description}</p> : null}
        </div>
      ) : null}
      {children ? <div className="card-body">{children}</div> : null}
      {footer ? <div className="card-footer">{footer}</div> : null}
    </section>
  )
}

import type { ReactNode } from 'react'
import { Card } from './Card.js'
import { PageHeading } from './PageHeading.js'

type Props = {
  title: string
  documentTitle?: string
  description?: ReactNode
  /** Links under the card ("New here? Create an account"). */
  after?: ReactNode
  children: ReactNode
}

/** A public page (sign-in, sign-up, reset…): the heading, one centred card, links under it. */
export const PublicCard = ({ title, documentTitle, description, after, children }: Props) => (
  <>
    <PageHeading
      title={title}
      {...(documentTitle ? { documentTitle } : {})}
      {...(description ? { description } : {})}
    />
    <Card>{children}</Card>
    {after ? <div className="public-footer">{after}</div> : null}
  </>
)

import { Link } from 'react-router'
import { PublicCard } from '../ui/PublicCard.js'

export const NotFoundPage = () => (
  <PublicCard title="Page not found">
    <p>There is nothing at this address. It may have moved, or the link may be incomplete.</p>
    <p>
      <Link to="/">Go to the start</Link>
    </p>
  </PublicCard>
)

/// Loading states keep the page's frame: grey shapes where the content will be, and one
/// status message for screen readers.

type LineProps = { width?: string; height?: string }

export const SkeletonLine = ({ width = '100%', height = '0.875rem' }: LineProps) => (
  <span className="skeleton" style={{ width, height }} />
)

/** A card-shaped placeholder with a title bar and a few lines. */
export const SkeletonCard = ({ lines = 3 }: { lines?: number }) => (
  <div className="card" aria-hidden="true">
    <div className="card-body skeleton-stack">
      <SkeletonLine width="40%" height="1.1rem" />
      {Array.from({ length: lines }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders, never reordered
        <SkeletonLine key={index} width={index % 2 === 0 ? '85%' : '65%'} />
      ))}
    </div>
  </div>
)

/** What a page shows while its data loads: the label is read out, the shapes are seen. */
export const Loading = ({ label = 'Loading…', cards = 1 }: { label?: string; cards?: number }) => (
  <div className="skeleton-stack">
    <p role="status" className="visually-hidden">
      {label}
    </p>
    {Array.from({ length: cards }, (_, index) => (
      // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders, never reordered
      <SkeletonCard key={index} />
    ))}
  </div>
)

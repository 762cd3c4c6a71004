export const Loading = ({ label = 'Loading…' }: { label?: string }) => (
  <p role="status" className="loading">
    {label}
  </p>
)

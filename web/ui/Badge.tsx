import type { ReactNode } from 'react'

export const Badge = ({ tone, children }: { tone: 'success' | 'warning' | 'info'; children: ReactNode }) => (
  <span className={`badge badge-${tone}`}>{children}</span>
)

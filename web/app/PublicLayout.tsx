import { Suspense } from 'react'
import { Outlet } from 'react-router'
import { Loading } from '../ui/Skeleton.js'
import { PublicFrame } from './frames.js'

/** Pages for people who are not (or not necessarily) signed in: one centred card. */
export const PublicLayout = () => (
  <PublicFrame>
    <Suspense fallback={<Loading />}>
      <Outlet />
    </Suspense>
  </PublicFrame>
)

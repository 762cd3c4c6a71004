import { api } from '../../app/api.js'

export type ActivityItem = {
  id: string
  type: string
  at: string
  ip: string | null
  userAgent: string | null
  details: Record<string, unknown> | null
}

export type ActivityPage = { items: ActivityItem[]; nextCursor: string | null }

export const ACTIVITY_PAGE_SIZE = 20

export const activityApi = api.injectEndpoints({
  endpoints: (build) => ({
    getActivity: build.infiniteQuery<ActivityPage, void, string | null>({
      query: ({ pageParam }) => ({
        url: '/activity',
        params: { limit: ACTIVITY_PAGE_SIZE, cursor: pageParam ?? undefined },
      }),
      infiniteQueryOptions: {
        initialPageParam: null,
        // null ends the list: RTK Query then reports hasNextPage false.
        getNextPageParam: (lastPage) => lastPage.nextCursor,
      },
      providesTags: ['Activity'],
    }),
  }),
})

export const { useGetActivityInfiniteQuery } = activityApi

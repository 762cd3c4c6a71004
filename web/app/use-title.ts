import { useEffect } from 'react'

/** Names the browser tab (and what screen readers announce on navigation) after the page. */
export const useTitle = (title: string) => {
  useEffect(() => {
    document.title = `${title} · Tessera`
  }, [title])
}

import { useEffect, useState } from 'react'
import { Icon } from '../../ui/icons.js'
import { useDebounced } from '../../ui/use-debounced.js'
import { isApiError } from '../errors/api-error.js'
import { useCheckSlugMutation } from './organizations.api.js'
import { checkSlug } from './slug.js'

const SETTLE_MS = 400

type Availability = 'idle' | 'checking' | 'free' | 'taken'

/**
 * Whether the slug is free, asked once typing settles (check-slug); never for a malformed slug
 * nor for the organization's own. Advice only: the server judges again on submit.
 */
export const useSlugAvailability = (slug: string, current: string | null = null): Availability => {
  const settled = useDebounced(slug, SETTLE_MS)
  const candidate = settled !== '' && checkSlug(settled) === null && settled !== current ? settled : null
  const [check] = useCheckSlugMutation()
  const [answer, setAnswer] = useState<{ slug: string; free: boolean | null } | null>(null)
  useEffect(() => {
    if (candidate === null) return
    let live = true
    check({ slug: candidate })
      .unwrap()
      .then(
        () => live && setAnswer({ slug: candidate, free: true }),
        (error: unknown) =>
          live &&
          setAnswer({
            slug: candidate,
            free: isApiError(error) && error.code === 'ORGANIZATION_SLUG_ALREADY_TAKEN' ? false : null,
          }),
      )
    return () => {
      live = false
    }
  }, [candidate, check])
  if (candidate === null || slug !== settled) return 'idle'
  if (answer?.slug !== candidate) return 'checking'
  if (answer.free === null) return 'idle'
  return answer.free ? 'free' : 'taken'
}

/** The sentence after the slug's hint: read out with it (it is part of the field's description). */
export const SlugAvailability = ({ state, slug }: { state: Availability; slug: string }) => {
  switch (state) {
    case 'checking':
      return <span className="rules"> Checking whether it is free…</span>
    case 'free':
      return (
        <span className="rules rules-good availability">
          {' '}
          <Icon name="check" size={14} /> {slug} is free.
        </span>
      )
    case 'taken':
      return <span className="rules rules-bad"> {slug} is taken. Try another one.</span>
    default:
      return null
  }
}

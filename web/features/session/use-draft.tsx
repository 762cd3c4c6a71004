import { useState } from 'react'
import { useOutletContext } from 'react-router'
import { Notice } from '../../ui/Notice.js'
import type { SignedIn } from './session.api.js'
import { draftOf, dropDraft, isSessionEndedError, keepDraft } from './session-ended.js'

/// One way for every account form to survive a session ended elsewhere: when a save is refused
/// with a 401, what was typed is kept in this tab (session-ended.ts), the portal goes to sign-in,
/// and on coming back the form starts from the kept values and says so. `form` names the form
/// and what it is about (an organization's id), so one organization's draft never fills another's.

export type Draft<Values extends Record<string, string>> = {
  /** What was kept when the session ended, to start the fields from; null for none. */
  kept: Values | null
  /** After a refused save: keeps `values` if the refusal was a session that ended. */
  keepIfSessionEnded: (error: unknown, values: Values) => void
  /** After a save: the draft is spent, and the form stops saying it was restored. */
  saved: () => void
}

/** The signed-in person's id, where the page sits under the session guard. */
const useSignedInUserId = (): string | null => {
  const context = useOutletContext<SignedIn | undefined>()
  return context?.user?.id ?? null
}

export const useDraft = <Values extends Record<string, string>>(
  form: string,
  userIdGiven?: string,
): Draft<Values> => {
  const fromOutlet = useSignedInUserId()
  const userId = userIdGiven ?? fromOutlet
  const [kept, setKept] = useState(() => (userId ? draftOf<Values>(form, userId) : null))
  return {
    kept,
    keepIfSessionEnded: (error, values) => {
      if (userId && isSessionEndedError(error)) keepDraft(form, userId, values)
    },
    saved: () => {
      if (userId) dropDraft(form, userId)
      setKept(null)
    },
  }
}

/** Said above a form whose fields came back from a draft. */
export const DraftRestored = ({ draft }: { draft: { kept: unknown } }) =>
  draft.kept ? (
    <Notice tone="info" live="none">
      Your session ended before these changes were saved: they are back below. Check them and save.
    </Notice>
  ) : null

import { useRef, useState } from 'react'
import { Card } from '../../ui/Card.js'
import { ErrorState } from '../../ui/ErrorState.js'
import { Notice } from '../../ui/Notice.js'
import { Loading } from '../../ui/Skeleton.js'
import { isApiError } from '../errors/api-error.js'
import { messageFor } from '../errors/messages.js'
import { ApiKeyList } from './ApiKeyList.js'
import { type KeyOwner, useListApiKeysQuery } from './api-keys.api.js'
import { CreateApiKeyForm } from './CreateApiKeyForm.js'
import './api-keys.css'

/** The words that differ between a person's keys and an organization's. */
export type ApiKeysWords = {
  /** The title of the list's card. */
  listTitle: string
  /** The list's accessible name. */
  listLabel: string
  /** What the list says with no key yet. */
  empty: string
  loading: string
}

/**
 * Creating (the key shown once), listing, disabling and deleting API keys: a person's own, or with
 * `owner.organizationId` an organization's. A refusal to read them (403: not a member, or a role
 * without the `apiKey` permission) is said in words, with nothing to retry.
 */
export const ApiKeysSections = ({ owner, words }: { owner?: KeyOwner; words: ApiKeysWords }) => {
  const { data, isLoading, error, refetch, isFetching } = useListApiKeysQuery(owner)
  const [news, setNews] = useState<string | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  // What had focus may be gone (a deleted key's buttons): the list's heading takes it, with the news.
  const changed = (message: string) => {
    setNews(message)
    void refetch()
    heading.current?.focus()
  }
  if (isApiError(error) && error.status === 403) return <Notice tone="error">{messageFor(error)}</Notice>
  return (
    <>
      <Card title="Create a key">
        <CreateApiKeyForm {...(owner ? { owner } : {})} onCreated={() => void refetch()} />
      </Card>
      {isLoading ? (
        <Loading label={words.loading} />
      ) : !data ? (
        <ErrorState message={messageFor(error)} onRetry={() => void refetch()} retrying={isFetching} />
      ) : (
        <Card
          title={words.listTitle}
          description="Only the first characters of each key are shown. A key that was lost cannot be shown again: delete it and create another."
          headingRef={heading}
        >
          <Notice tone="success">{news}</Notice>
          <ApiKeyList keys={data.apiKeys} label={words.listLabel} empty={words.empty} onChanged={changed} />
        </Card>
      )}
    </>
  )
}

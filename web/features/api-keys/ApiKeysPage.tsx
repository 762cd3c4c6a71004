import { useRef, useState } from 'react'
import { Card } from '../../ui/Card.js'
import { ErrorState } from '../../ui/ErrorState.js'
import { Notice } from '../../ui/Notice.js'
import { PageHeading } from '../../ui/PageHeading.js'
import { Loading } from '../../ui/Skeleton.js'
import { messageFor } from '../errors/messages.js'
import { ApiKeyList } from './ApiKeyList.js'
import { useListApiKeysQuery } from './api-keys.api.js'
import { CreateApiKeyForm } from './CreateApiKeyForm.js'
import './api-keys.css'

/** API keys: programs that act as you. Create (the key shown once), list, disable, delete. */
export const ApiKeysPage = () => {
  const { data, isLoading, error, refetch, isFetching } = useListApiKeysQuery()
  const [news, setNews] = useState<string | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  // What had focus may be gone (a deleted key's buttons): the list's heading takes it, with the news.
  const changed = (message: string) => {
    setNews(message)
    void refetch()
    heading.current?.focus()
  }
  return (
    <>
      <PageHeading
        title="API keys"
        description="Keys let your scripts and servers call applications as you. Treat each like a password."
      />
      <Card title="Create a key">
        <CreateApiKeyForm onCreated={() => void refetch()} />
      </Card>
      {isLoading ? (
        <Loading label="Loading your API keys…" />
      ) : !data ? (
        <ErrorState message={messageFor(error)} onRetry={() => void refetch()} retrying={isFetching} />
      ) : (
        <Card
          title="Your keys"
          description="Only the first characters of each key are shown. A key you have lost cannot be shown again: delete it and create another."
          headingRef={heading}
        >
          <Notice tone="success">{news}</Notice>
          <ApiKeyList keys={data.apiKeys} onChanged={changed} />
        </Card>
      )}
    </>
  )
}

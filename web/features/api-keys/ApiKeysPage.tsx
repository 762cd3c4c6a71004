import { PageHeading } from '../../ui/PageHeading.js'
import { ApiKeysSections } from './ApiKeysSections.js'

const WORDS = {
  listTitle: 'Your keys',
  listLabel: 'Your API keys',
  empty: 'You have no API keys yet.',
  loading: 'Loading your API keys…',
}

/** API keys: programs that act as you. Create (the key shown once), list, disable, delete. */
export const ApiKeysPage = () => (
  <>
    <PageHeading
      title="API keys"
      description="Keys let your scripts and servers call applications as you. Treat each like a password."
    />
    <ApiKeysSections words={WORDS} />
  </>
)

import { useRef, useState } from 'react'

export type ImageState = { url: string; status: 'loaded' | 'broken' }

/** How long a picture may take to load before saving gives up on it. */
export const IMAGE_CHECK_MS = 10_000

/**
 * The picture's load, as the preview reports it, and a way to wait for it before saving: an
 * address typed and saved at once (before the preview settled) is loaded then (the preview shows
 * it straight away) and saved only if it loads. A picture that does not answer in time is refused.
 */
export const useImageCheck = () => {
  const [state, setState] = useState<ImageState | null>(null)
  const [probing, setProbing] = useState<string | null>(null)
  const waiting = useRef<{ url: string; resolve: (loads: boolean) => void } | null>(null)

  const settle = (url: string, loads: boolean) => {
    if (waiting.current?.url !== url) return
    waiting.current.resolve(loads)
    waiting.current = null
    setProbing(null)
  }
  const onResult = (result: ImageState) => {
    setState(result)
    settle(result.url, result.status === 'loaded')
  }
  const loads = (url: string): Promise<boolean> => {
    if (state?.url === url) return Promise.resolve(state.status === 'loaded')
    return new Promise((resolve) => {
      waiting.current = { url, resolve }
      setProbing(url)
      setTimeout(() => settle(url, false), IMAGE_CHECK_MS)
    })
  }
  return { state, probing, onResult, loads }
}

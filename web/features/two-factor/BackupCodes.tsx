import { useState } from 'react'
import { Button } from '../../ui/Button.js'

/** Backup codes as they are shown once: copy them, or download them as a text file. */
export const BackupCodes = ({ codes }: { codes: string[] }) => {
  const [copied, setCopied] = useState(false)
  const text = `${codes.join('\n')}\n`
  const copy = async () => {
    await navigator.clipboard?.writeText(text)
    setCopied(true)
  }
  const download = () => {
    const link = document.createElement('a')
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }))
    link.download = 'backup-codes.txt'
    link.click()
    URL.revokeObjectURL(link.href)
  }
  return (
    <div className="stack">
      <p>
        Keep these backup codes somewhere safe. Each one signs you in once if you lose your authenticator.
        They are shown only now.
      </p>
      <ul className="backup-codes" aria-label="Backup codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="two-factor-actions">
        <Button size="small" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy codes'}
        </Button>
        <Button size="small" onClick={download}>
          Download codes
        </Button>
      </div>
    </div>
  )
}

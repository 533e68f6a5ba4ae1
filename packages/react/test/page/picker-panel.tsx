import { FolderPicker, useFolderPicker } from '@service-sdk/react'
import { useState } from 'react'

/** Two in-memory files for flow 1 (the selector page uploads them itself). */
const files = () => [
  new File(['hello, react'], 'hello.txt', { type: 'text/plain' }),
  new File([new Uint8Array(256).map((_, i) => i)], 'all-bytes.bin'),
]

export function PickerPanel({ appUrl }: { appUrl: string }) {
  const picker = useFolderPicker({ appUrl, theme: 'dark' })
  const [shown, setShown] = useState<{
    mode: 'modal' | 'inline' | 'none'
    flow: 1 | 2
    key: number
    unhandled: boolean
  }>({ mode: 'none', flow: 2, key: 0, unhandled: false })
  const [answer, setAnswer] = useState('')
  window.pick = picker.pick
  window.pickerUpload = () => picker.upload(files(), { link: 'https://example.com/post/7' })
  window.closePicker = picker.close
  window.showPicker = (mode, flow = 2, unhandled = false) => {
    setAnswer('')
    setShown((s) => ({ mode, flow, key: s.key + 1, unhandled }))
  }

  return (
    <section>
      <button type="button" id="pick" onClick={() => void picker.pick().catch(() => {})}>
        Choose a folder
      </button>
      <output id="picker">
        {JSON.stringify({ status: picker.status, choice: picker.choice, error: picker.error?.code })}
      </output>
      {shown.mode !== 'none' && (
        <FolderPicker
          key={shown.key}
          // A page that never sends its loaded message: the call fails with timeout.
          appUrl={shown.unhandled ? `${location.origin}/never-loads` : appUrl}
          {...(shown.unhandled && { timeoutMs: 500 })}
          inline={shown.mode === 'inline'}
          style={{ height: 560 }}
          className="inline-picker"
          {...(shown.flow === 1 && { files: files(), link: 'https://example.com/post/8' })}
          onChoice={(choice) => setAnswer(JSON.stringify({ choice }))}
          onCancel={() => setAnswer('cancel')}
          {...(!shown.unhandled && { onError: (error) => setAnswer(JSON.stringify({ error: error.code })) })}
        />
      )}
      <output id="answer">{answer}</output>
    </section>
  )
}

/**
 * The selector page's behaviour, in the browser: the entry bundled into the script the page
 * loads (`/outer/assets/selector.js`, see ../client-script.ts). It posts the lifecycle messages
 * of the configured families to its parent with target `'*'` (as the service's page does; the
 * embedder checks origins), accepts `service-choiceModal-init` (theme) and, in flow 1, `open`
 * (files) from its parent window only, lets the user pick a writable folder, and in flow 1
 * uploads the files through this origin's `api/upload` endpoints before reporting success with
 * `{id: folderId, orgId}`. The protocol is described in docs/service-behaviour.md.
 */
import { receiveFiles } from './files.ts'
import { cancel, say, succeed } from './lifecycle.ts'
import { onHostMessage, post } from './messages.ts'
import { readPage } from './page-state.ts'
import { onTreeClick, onTreeDoubleClick, onTreeKey } from './tree.ts'
import { upload } from './upload.ts'

const state = readPage()

addEventListener('message', (event) =>
  onHostMessage(state, event, {
    init: (theme) => {
      state.root.dataset.theme = theme === 'dark' ? 'dark' : 'light'
    },
    open: (data) => receiveFiles(state, data),
  }),
)
state.tree.addEventListener('click', (event) => onTreeClick(state, event))
state.tree.addEventListener('dblclick', (event) => onTreeDoubleClick(state, event))
state.tree.addEventListener('keydown', (event) => onTreeKey(state, event))
state.confirmButton.addEventListener('click', () => {
  if (state.flow === 'choose') succeed(state)
  else void upload(state)
})
state.cancelButton.addEventListener('click', () => cancel(state))
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') {
    event.preventDefault()
    cancel(state)
  }
})
addEventListener('pagehide', () => post(state, 'unMounted'))

if (!state.host)
  say(state, 'Not embedded: this page posts its messages to an embedding page. Select a folder.')
if (state.flow === 'upload') post(state, 'init')
// Last: the host answers at once, and everything above is ready for it.
post(state, 'loaded')

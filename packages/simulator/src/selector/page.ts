import { escapeHtml } from '../pages/login.ts'
import type { MessageFamily } from './browser/message-families.ts'
import type { FolderNode, SpaceView } from './spaces.ts'

/** `upload`: flow 1, the page uploads the files it is sent. `choose`: flow 2 (`file=empty`). */
export type SelectorFlow = 'upload' | 'choose'

/** The message families the page posts (docs/service-behaviour.md, "The selector page"). */
export type SelectorFamily = MessageFamily

/** The `selectorFamily` quirk as the families to post: anything but one family means both. */
export function familiesOf(quirk: unknown): SelectorFamily[] {
  if (quirk === 'choiceModal' || quirk === 'selector') return [quirk]
  return ['choiceModal', 'selector']
}

/**
 * Nothing inline, nothing from elsewhere: the script and styles come from this origin, the page
 * talks to this origin only, and Trusted Types make any HTML-from-string sink an error. Framing
 * is allowed from anywhere on purpose: the page exists to be embedded.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  'frame-ancestors *',
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ')

export interface SelectorPageModel {
  flow: SelectorFlow
  families: SelectorFamily[]
  /** The `selectorIds` quirk: `numbers` sends every id as a JSON number, rounded beyond 2^53. */
  ids: 'exact' | 'numbers'
  /** The `selectorPersonalOrg` quirk: `absent` leaves orgId out for the personal space. */
  personalOrg: 'one' | 'absent'
  userName: string
  spaces: SpaceView[]
  maxUploadBytes: number
}

const READ_ONLY: Record<NonNullable<SpaceView['readOnly']>, { badge: string; why: string }> = {
  'view-only': { badge: 'View only', why: 'your role in this space is view only' },
  expired: { badge: 'Expired', why: 'this space has expired' },
  'reserved-id': { badge: 'Unavailable', why: 'its id 1 is reserved for the personal space' },
}

/** The page itself: server-rendered tree, behaviour from /outer/assets/selector.js. */
export function renderSelectorPage(model: SelectorPageModel): string {
  const upload = model.flow === 'upload'
  const title = upload ? 'Upload to a folder' : 'Choose a folder'
  const tree = model.spaces.map((space, index) => spaceItem(space, index === 0)).join('')
  return `<!doctype html>
<html lang="en" data-flow="${model.flow}" data-families="${model.families.join(' ')}" data-ids="${model.ids}" data-personal-org="${model.personalOrg}" data-theme="light" data-max-bytes="${model.maxUploadBytes}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · service simulator</title>
<link rel="stylesheet" href="assets/selector.css">
<script src="assets/selector.js" defer></script>
</head>
<body>
<main class="selector" aria-labelledby="title">
<header class="bar top">
<h1 id="title">${title}</h1>
<p class="who">Signed in as <strong>${escapeHtml(model.userName)}</strong> <span class="sim">simulator</span></p>
</header>
${
  upload
    ? `<section class="files" aria-labelledby="files-title">
<h2 id="files-title">Files</h2>
<p id="files-note" class="note">Waiting for the files from the embedding page…</p>
<ul id="file-list" class="file-list"></ul>
</section>`
    : ''
}
<nav class="tree-wrap" aria-label="Spaces and folders">
<ul role="tree" id="tree" aria-labelledby="title">${tree}</ul>
</nav>
<footer class="bar bottom">
<p id="status" class="status" role="status" aria-live="polite">Select a folder.</p>
<div class="actions">
<button type="button" id="cancel" class="button">Cancel</button>
<button type="button" id="confirm" class="button primary" disabled>${upload ? 'Upload' : 'Confirm'}</button>
</div>
</footer>
</main>
</body>
</html>`
}

function spaceItem(space: SpaceView, first: boolean): string {
  const readOnly = space.readOnly ? READ_ONLY[space.readOnly] : undefined
  const labelId = `l-${space.orgId}-0`
  const badge = readOnly ? `<span class="badge" id="b-${space.orgId}">${readOnly.badge}</span>` : ''
  const role = space.roleName ? `<span class="role">${escapeHtml(space.roleName)}</span>` : ''
  const children = space.folders.map((f) => folderItem(f, space, [space.name], readOnly?.why)).join('')
  return `<li role="treeitem" class="space" id="n-${space.orgId}-0" data-org="${space.orgId}" data-folder="0" data-path="${escapeHtml(space.name)}"${attrs(readOnly?.why, space.name)} aria-level="1" aria-selected="false" tabindex="${first ? 0 : -1}"${children ? ' aria-expanded="true"' : ''} aria-labelledby="${labelId}${badge ? ` b-${space.orgId}` : ''}">
<span class="row"><span class="twisty" aria-hidden="true"></span><span class="icon icon-space" aria-hidden="true"></span><span class="label" id="${labelId}">${escapeHtml(space.name)}</span>${role}${badge}</span>${children ? `<ul role="group">${children}</ul>` : ''}</li>`
}

function folderItem(folder: FolderNode, space: SpaceView, path: string[], why: string | undefined): string {
  const here = [...path, folder.name]
  const labelId = `l-${space.orgId}-${folder.id}`
  const children = folder.children.map((f) => folderItem(f, space, here, why)).join('')
  return `<li role="treeitem" id="n-${space.orgId}-${folder.id}" data-org="${space.orgId}" data-folder="${folder.id}" data-path="${escapeHtml(here.join(' / '))}"${attrs(why, space.name)} aria-level="${here.length}" aria-selected="false" tabindex="-1"${children ? ' aria-expanded="false"' : ''} aria-labelledby="${labelId}">
<span class="row"><span class="twisty" aria-hidden="true"></span><span class="icon icon-folder" aria-hidden="true"></span><span class="label" id="${labelId}">${escapeHtml(folder.name)}</span></span>${children ? `<ul role="group">${children}</ul>` : ''}</li>`
}

function attrs(why: string | undefined, spaceName: string): string {
  return why
    ? ` aria-disabled="true" data-why="${escapeHtml(`You cannot upload to ${spaceName}: ${why}.`)}"`
    : ''
}

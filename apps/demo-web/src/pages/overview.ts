import { api } from '../api/client.ts'
import type { DemoInfo } from '../api/types.ts'
import type { Page } from '../context.ts'
import { h, icon, render } from '../dom.ts'
import { badge, card, pageHeader } from '../ui.ts'
import { eventsPage } from './events.ts'
import { spacesPage } from './spaces.ts'
import { teamPage } from './team.ts'
import { uploadPage } from './upload.ts'

export const overviewPage: Page = {
  path: '/',
  title: 'Overview',
  label: 'Overview',
  icon: 'home',
  description: 'A working product on the service SDK: team administration, uploads, spaces and live events.',
  mount(main, context) {
    let stopped = false
    const show = (info: DemoInfo) => {
      if (!stopped) render(main, ...view(info))
    }
    show(context.info)
    // The subscriptions may have settled since the page loaded.
    api.config().then(show, () => {})
    return () => {
      stopped = true
    }
  },
}

function view(info: DemoInfo) {
  const state = (s: { state: string; message?: string }) =>
    s.state === 'active'
      ? badge('Active', 'success')
      : s.state === 'pending'
        ? badge('Starting', 'info')
        : badge('Failed', 'danger', s.message)
  return [
    pageHeader('Welcome', overviewPage.description),
    h(
      'div',
      { class: 'tiles' },
      [teamPage, uploadPage, spacesPage, eventsPage].map((page) =>
        h(
          'a',
          { class: 'tile', href: `#${page.path}` },
          h('span', { class: 'tile-icon' }, icon(page.icon)),
          h('strong', null, page.title),
          h('span', null, page.description),
        ),
      ),
    ),
    card(
      {
        title: 'This demo is connected to',
        subtitle:
          info.mode === 'simulator'
            ? 'The built-in simulator: the whole service, locally, with throwaway credentials.'
            : 'The service configured in the server’s environment.',
      },
      h(
        'dl',
        { class: 'facts' },
        h('dt', null, 'Mode'),
        h(
          'dd',
          null,
          info.mode === 'simulator' ? badge('Simulator', 'info') : badge('Live service', 'success'),
        ),
        h('dt', null, 'Folder selector'),
        h('dd', null, h('code', null, info.appUrl)),
        h('dt', null, 'Webhook receiver'),
        h(
          'dd',
          null,
          h('code', null, info.webhooks.receiverUrl),
          h('span', { class: 'muted' }, ' (the token in the URL is hidden)'),
        ),
        h('dt', null, 'Asset events'),
        h(
          'dd',
          null,
          state(info.webhooks.assetEvents),
          ` ${info.webhooks.assetEvents.eventTypes.length} types`,
          info.webhooks.assetEvents.message
            ? h('p', { class: 'field-error' }, info.webhooks.assetEvents.message)
            : null,
        ),
        h('dt', null, 'Folder callbacks'),
        h(
          'dd',
          null,
          state(info.webhooks.folders),
          ` ${info.webhooks.folders.folderIds.length} folders watched`,
          info.webhooks.folders.message
            ? h('p', { class: 'field-error' }, info.webhooks.folders.message)
            : null,
        ),
      ),
      h(
        'p',
        { class: 'hint' },
        'Keys and tokens stay on the server: this page only talks to the demo server’s API.',
      ),
    ),
  ]
}

import { api } from '../api/client.ts'
import type { Space } from '../api/types.ts'
import type { Page } from '../context.ts'
import { h, icon, render } from '../dom.ts'
import { formatDate, formatDateTime } from '../format.ts'
import { badge, busy, button, card, emptyState, errorAlert, pageHeader, spinner, table } from '../ui.ts'

export const spacesPage: Page = {
  path: '/spaces',
  title: 'Spaces',
  label: 'Spaces',
  icon: 'layers',
  description:
    'Where you can save assets: your personal space and your teams, with your role, their validity and whether you may write into them now.',
  mount(main) {
    const slot = h('div', { class: 'table-slot' })
    const summary = h('span', { class: 'count' })
    const load = async () => {
      render(slot, spinner('Loading spaces…'))
      try {
        const { spaces } = await api.spaces()
        show(spaces)
      } catch (error) {
        render(
          slot,
          errorAlert(error, 'Loading the spaces'),
          button('Try again', () => load()),
        )
      }
    }
    const show = (spaces: Space[]) => {
      const writable = spaces.filter((s) => s.writable).length
      summary.textContent = `You can upload into ${writable} of ${spaces.length} spaces`
      if (spaces.length === 0) {
        render(slot, emptyState('layers', 'No spaces', 'The service lists no space for this account.'))
        return
      }
      const rows = spaces.map(spaceRow)
      render(slot, table('Spaces', ['Space', 'Edition', 'Your role', 'Validity', 'Can upload'], rows))
    }
    render(
      main,
      pageHeader(
        'Spaces',
        spacesPage.description,
        button([icon('refresh'), 'Refresh'], (e) =>
          busy(e.currentTarget as HTMLButtonElement, 'Refreshing…', load),
        ),
      ),
      card(
        { title: 'Your spaces', subtitle: summary },
        slot,
        h(
          'p',
          { class: 'hint' },
          'The write rule: a team space accepts uploads when your role is not view-only, the team is valid and its expiry is in the future (',
          h('code', null, 'canWrite()'),
          ' in @service-sdk/open). The folder selector reports the personal space as space 1.',
        ),
      ),
    )
    void load()
    return () => {}
  },
}

/** One space: its name, edition, the caller's role, validity and whether the caller may write now. */
function spaceRow(s: Space): HTMLTableRowElement {
  return h(
    'tr',
    { 'data-space-id': s.id },
    h(
      'td',
      null,
      h(
        'div',
        { class: 'space-name' },
        h('strong', null, s.name),
        h(
          'span',
          { class: 'muted' },
          s.kind === 'personal' ? 'Only you' : `Team ${s.orgNo ?? ''} · id ${s.id}`,
        ),
      ),
    ),
    h('td', null, s.edition ?? '—'),
    h('td', null, s.role ?? (s.kind === 'personal' ? 'Owner' : '—')),
    h(
      'td',
      null,
      s.kind === 'personal'
        ? badge('Always valid', 'success')
        : s.valid && (s.expiresAt ?? Number.POSITIVE_INFINITY) > Date.now()
          ? h(
              'span',
              { title: s.expiresAt ? formatDateTime(s.expiresAt) : undefined },
              badge('Valid', 'success'),
              s.expiresAt ? ` until ${formatDate(s.expiresAt)}` : '',
            )
          : h(
              'span',
              { title: s.expiresAt ? formatDateTime(s.expiresAt) : undefined },
              badge('Expired', 'danger'),
              s.expiresAt ? ` since ${formatDate(s.expiresAt)}` : '',
            ),
    ),
    h(
      'td',
      null,
      s.writable
        ? h('span', { class: 'can-write' }, icon('check'), 'Yes')
        : h(
            'span',
            { class: 'cannot-write' },
            icon('lock'),
            h('span', null, 'No', h('span', { class: 'muted' }, ` · ${s.readOnlyReason ?? ''}`)),
          ),
    ),
  )
}

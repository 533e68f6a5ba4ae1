import { ApiRequestError, api } from '../api/client.ts'
import type { Member } from '../api/types.ts'
import type { Page } from '../context.ts'
import { announce, h, icon, render } from '../dom.ts'
import { formatDate, formatDateTime } from '../format.ts'
import {
  alertBox,
  apiError,
  busy,
  button,
  card,
  emptyState,
  errorAlert,
  field,
  pageHeader,
  spinner,
  table,
} from '../ui.ts'

export const teamPage: Page = {
  path: '/team',
  title: 'Team',
  label: 'Team',
  icon: 'users',
  description: 'Members of your team; create and invite people; open the application as a member.',
  mount(main) {
    let members: Member[] = []
    let highlight: string | undefined
    const tableSlot = h('div', { class: 'table-slot' })
    const count = h('span', { class: 'count' })

    const load = async () => {
      render(tableSlot, spinner('Loading members…'))
      try {
        members = (await api.members()).members
        renderTable()
      } catch (error) {
        render(
          tableSlot,
          errorAlert(error, 'Loading the members'),
          button('Try again', () => load()),
        )
      }
    }

    const renderTable = () => {
      count.textContent = members.length === 1 ? '1 member' : `${members.length} members`
      if (members.length === 0) {
        render(
          tableSlot,
          emptyState('users', 'No members yet', 'Create a user or invite one with the forms below.'),
        )
        return
      }
      const rows = members.map((m) =>
        h(
          'tr',
          { class: m.id === highlight ? 'row-new' : undefined, 'data-member-id': m.id },
          h(
            'td',
            null,
            h(
              'div',
              { class: 'person' },
              h('span', { class: 'avatar', 'aria-hidden': 'true' }, initials(m.name || m.email)),
              h('span', null, m.name || '—'),
            ),
          ),
          h('td', null, h('a', { href: `mailto:${m.email}` }, m.email)),
          h('td', null, h('code', { class: 'id' }, m.id)),
          h(
            'td',
            null,
            h('time', { datetime: m.createdAt, title: formatDateTime(m.createdAt) }, formatDate(m.createdAt)),
          ),
          h(
            'td',
            { class: 'cell-actions' },
            button(
              [icon('login'), 'Open as member'],
              (event) => openAsMember(m, event.currentTarget as HTMLButtonElement),
              {
                small: true,
                ariaLabel: `Open the application as ${m.name || m.email}`,
              },
            ),
          ),
        ),
      )
      render(tableSlot, table('Team members', ['Name', 'Email', 'Member id', 'Joined', ''], rows))
    }

    // ---- create and invite -------------------------------------------------------------------
    const addForm = (options: {
      title: string
      subtitle: string
      submit: string
      busyLabel: string
      withPassword: boolean
      run: (email: string, password?: string) => Promise<Member>
      done: (member: Member) => string
    }) => {
      const email = field({
        label: 'Email address',
        name: 'email',
        type: 'email',
        required: true,
        placeholder: 'name@acme.com',
        autocomplete: 'off',
      })
      const password = options.withPassword
        ? field({
            label: 'Initial password',
            name: 'password',
            type: 'password',
            hint: 'Leave empty to let the service handle it.',
            autocomplete: 'new-password',
          })
        : undefined
      const result = h('div', { class: 'form-result' })
      const submit = button(options.submit, () => {}, { variant: 'primary', type: 'submit' })
      const form = h(
        'form',
        {
          class: 'form',
          novalidate: true,
          onsubmit: async (event: Event) => {
            event.preventDefault()
            result.replaceChildren()
            email.setError(undefined)
            password?.setError(undefined)
            const value = email.input.value.trim()
            if (value === '') {
              email.setError('Enter an email address.')
              email.input.focus()
              return
            }
            if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) {
              email.setError('This does not look like an email address.')
              email.input.focus()
              return
            }
            try {
              const member = await busy(submit, options.busyLabel, () =>
                options.run(value, password?.input.value || undefined),
              )
              email.input.value = ''
              if (password) password.input.value = ''
              const message = options.done(member)
              // The outcome stays where the user acted (a live region): a toast repeating it floated
              // over the other form's outcome (a create, then a failed invite, overlapped).
              result.replaceChildren(alertBox('success', message))
              highlight = member.id
              await load()
            } catch (error) {
              const e = apiError(error)
              const issue =
                e.issues?.find((i) => i.field.includes('email')) ??
                (e.code === 'invalid_input' ? e.issues?.[0] : undefined)
              if (e.code === 'domain_not_whitelisted' || e.code === 'conflict' || e.code === 'not_found') {
                email.setError(
                  e.code === 'domain_not_whitelisted'
                    ? `${e.domain ?? 'This domain'} is not on the team’s whitelist.`
                    : e.message,
                )
                result.replaceChildren(errorAlert(error, options.submit))
              } else if (issue) {
                email.setError(issue.message)
              } else {
                result.replaceChildren(errorAlert(error, options.submit))
              }
              if (!(error instanceof ApiRequestError) || e.status !== 0) email.input.focus()
            }
          },
        },
        email.wrapper,
        password?.wrapper,
        h('div', { class: 'form-actions' }, submit),
        result,
      )
      return card({ title: options.title, subtitle: options.subtitle }, form)
    }

    // ---- impersonation ----------------------------------------------------------------------
    const dialog = h('dialog', { class: 'modal modal-wide', 'aria-labelledby': 'impersonation-title' })
    dialog.addEventListener('close', () => dialog.replaceChildren())
    const openAsMember = async (member: Member, trigger: HTMLButtonElement) => {
      try {
        const login = await busy(trigger, 'Signing in…', () => api.impersonate(member.id))
        const frame = h('iframe', {
          class: 'impersonation-frame',
          src: login.iframe.src,
          title: login.iframe.title,
          sandbox: login.iframe.sandbox,
          allow: login.iframe.allow,
          referrerpolicy: login.iframe.referrerPolicy,
        })
        render(
          dialog,
          h(
            'div',
            { class: 'modal-header' },
            h(
              'div',
              null,
              h('h2', { id: 'impersonation-title' }, `Signed in as ${member.name || member.email}`),
              h(
                'p',
                { class: 'card-subtitle' },
                `The application, embedded with a one-time login link valid until ${formatDateTime(login.expiresAt)}.`,
              ),
            ),
            button(icon('x', 'Close'), () => dialog.close(), { variant: 'ghost', ariaLabel: 'Close' }),
          ),
          h('div', { class: 'modal-body frame-body' }, frame),
        )
        dialog.showModal()
      } catch (error) {
        const e = apiError(error)
        announce(
          e.code === 'domain_not_whitelisted'
            ? `Cannot open as ${member.email}: ${e.message}`
            : `Could not open as ${member.email}: ${e.message}`,
          'error',
        )
      }
    }

    render(
      main,
      pageHeader(
        'Team',
        teamPage.description,
        button([icon('refresh'), 'Refresh'], (event) =>
          busy(event.currentTarget as HTMLButtonElement, 'Refreshing…', load),
        ),
      ),
      card({ title: 'Members', subtitle: count }, tableSlot),
      h(
        'div',
        { class: 'grid-2' },
        addForm({
          title: 'Create a user',
          subtitle:
            'A new account, added to the team. Its email domain must be on the team’s verified whitelist.',
          submit: 'Create user',
          busyLabel: 'Creating…',
          withPassword: true,
          run: async (email, password) => (await api.createMember(email, password)).member,
          done: (m) => `Created ${m.name || m.email} and added them to the team.`,
        }),
        addForm({
          title: 'Invite a registered user',
          subtitle: 'Someone who already has an account joins the team. Whitelisted domains only.',
          submit: 'Send invitation',
          busyLabel: 'Inviting…',
          withPassword: false,
          run: async (email) => (await api.inviteMember(email)).member,
          done: (m) => `Invited ${m.name || m.email} to the team.`,
        }),
      ),
      dialog,
    )
    void load()
    return () => {
      if (dialog.open) dialog.close()
    }
  },
}

function initials(name: string): string {
  const parts = name
    .replace(/@.*/, '')
    .split(/[\s._-]+/)
    .filter(Boolean)
  return ((parts[0]?.[0] ?? '?') + (parts[1]?.[0] ?? '')).toUpperCase()
}

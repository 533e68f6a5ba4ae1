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
    let highlight: string | undefined
    const tableSlot = h('div', { class: 'table-slot' })
    const count = h('span', { class: 'count' })
    const impersonation = impersonationDialog()
    const load = async () => {
      render(tableSlot, spinner('Loading members…'))
      try {
        const { members } = await api.members()
        count.textContent = members.length === 1 ? '1 member' : `${members.length} members`
        render(tableSlot, membersTable(members, highlight, impersonation.open))
      } catch (error) {
        render(
          tableSlot,
          errorAlert(error, 'Loading the members'),
          button('Try again', () => load()),
        )
      }
    }
    const added = async (member: Member) => {
      highlight = member.id
      await load()
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
      h('div', { class: 'grid-2' }, addForm(CREATE, added), addForm(INVITE, added)),
      impersonation.dialog,
    )
    void load()
    return () => {
      if (impersonation.dialog.open) impersonation.dialog.close()
    }
  },
}

function membersTable(
  members: Member[],
  highlight: string | undefined,
  openAsMember: (member: Member, trigger: HTMLButtonElement) => void,
): HTMLElement {
  if (members.length === 0) {
    return emptyState('users', 'No members yet', 'Create a user or invite one with the forms below.')
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
  return table('Team members', ['Name', 'Email', 'Member id', 'Joined', ''], rows)
}

// ---- create and invite -------------------------------------------------------------------

interface AddForm {
  title: string
  subtitle: string
  submit: string
  busyLabel: string
  withPassword: boolean
  run: (email: string, password?: string) => Promise<Member>
  done: (member: Member) => string
}

const CREATE: AddForm = {
  title: 'Create a user',
  subtitle: 'A new account, added to the team. Its email domain must be on the team’s verified whitelist.',
  submit: 'Create user',
  busyLabel: 'Creating…',
  withPassword: true,
  run: async (email, password) => (await api.createMember(email, password)).member,
  done: (m) => `Created ${m.name || m.email} and added them to the team.`,
}

const INVITE: AddForm = {
  title: 'Invite a registered user',
  subtitle: 'Someone who already has an account joins the team. Whitelisted domains only.',
  submit: 'Send invitation',
  busyLabel: 'Inviting…',
  withPassword: false,
  run: async (email) => (await api.inviteMember(email)).member,
  done: (m) => `Invited ${m.name || m.email} to the team.`,
}

type Field = ReturnType<typeof field>

function addForm(options: AddForm, added: (member: Member) => Promise<void>): HTMLElement {
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
  const onsubmit = async (event: Event) => {
    event.preventDefault()
    result.replaceChildren()
    email.setError(undefined)
    password?.setError(undefined)
    const value = checkedEmail(email)
    if (value === undefined) return
    try {
      const member = await busy(submit, options.busyLabel, () =>
        options.run(value, password?.input.value || undefined),
      )
      email.input.value = ''
      if (password) password.input.value = ''
      // The outcome stays where the user acted (a live region): a toast repeating it floated
      // over the other form's outcome (a create, then a failed invite, overlapped).
      result.replaceChildren(alertBox('success', options.done(member)))
      await added(member)
    } catch (error) {
      showRefusal(error, email, result, options.submit)
    }
  }
  const form = h(
    'form',
    { class: 'form', novalidate: true, onsubmit },
    email.wrapper,
    password?.wrapper,
    h('div', { class: 'form-actions' }, submit),
    result,
  )
  return card({ title: options.title, subtitle: options.subtitle }, form)
}

/** The email typed, or undefined with the field saying what is wrong. */
function checkedEmail(email: Field): string | undefined {
  const value = email.input.value.trim()
  const problem =
    value === ''
      ? 'Enter an email address.'
      : /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)
        ? undefined
        : 'This does not look like an email address.'
  if (problem === undefined) return value
  email.setError(problem)
  email.input.focus()
  return undefined
}

/** The service's refusal, on the email field when it is about the email, else under the form. */
function showRefusal(error: unknown, email: Field, result: HTMLElement, action: string): void {
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
    result.replaceChildren(errorAlert(error, action))
  } else if (issue) {
    email.setError(issue.message)
  } else {
    result.replaceChildren(errorAlert(error, action))
  }
  if (!(error instanceof ApiRequestError) || e.status !== 0) email.input.focus()
}

// ---- impersonation ----------------------------------------------------------------------

/** The dialog that embeds the application signed in as a member (a one-time login link). */
function impersonationDialog() {
  const dialog = h('dialog', { class: 'modal modal-wide', 'aria-labelledby': 'impersonation-title' })
  dialog.addEventListener('close', () => dialog.replaceChildren())
  const open = async (member: Member, trigger: HTMLButtonElement) => {
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
      const until = formatDateTime(login.expiresAt)
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
              `The application, embedded with a one-time login link valid until ${until}.`,
            ),
          ),
          button(icon('x', 'Close'), () => dialog.close(), { variant: 'ghost', ariaLabel: 'Close' }),
        ),
        h('div', { class: 'modal-body frame-body' }, frame),
      )
      dialog.showModal()
    } catch (error) {
      const e = apiError(error)
      const verb = e.code === 'domain_not_whitelisted' ? 'Cannot' : 'Could not'
      announce(`${verb} open as ${member.email}: ${e.message}`, 'error')
    }
  }
  return { dialog, open }
}

function initials(name: string): string {
  const parts = name
    .replace(/@.*/, '')
    .split(/[\s._-]+/)
    .filter(Boolean)
  return ((parts[0]?.[0] ?? '?') + (parts[1]?.[0] ?? '')).toUpperCase()
}

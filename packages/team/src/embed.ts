import type { Impersonation } from '@service-sdk/core'

/** Attributes for the iframe that embeds the application as a member. */
export interface ImpersonationIframe {
  src: string
  title: string
  /**
   * What the embedded application needs and no more: its own scripts, storage and forms, opening
   * links and downloads. Not `allow-top-navigation`: it must never navigate the embedding page.
   */
  sandbox: string
  allow: string
  /** The embedding page's URL is not sent to the application. */
  referrerPolicy: 'no-referrer'
  /** The iframe as HTML, attribute values escaped. */
  html: string
}

export const IMPERSONATION_SANDBOX =
  'allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox allow-downloads'

export const IMPERSONATION_ALLOW = 'clipboard-read; clipboard-write; fullscreen'

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

/**
 * The iframe for an impersonation login URL. The URL carries a login token: render it into the
 * page for the member it was made for, never log it, and do not cache the page.
 */
export function embedImpersonation(
  impersonation: Pick<Impersonation, 'loginUrl'>,
  options: { title?: string; width?: string; height?: string } = {},
): ImpersonationIframe {
  const title = options.title ?? 'Application'
  const src = impersonation.loginUrl
  const style = `border:0;width:${options.width ?? '100%'};height:${options.height ?? '100%'}`
  const html = `<iframe src="${escapeHtml(src)}" title="${escapeHtml(title)}" sandbox="${IMPERSONATION_SANDBOX}" allow="${IMPERSONATION_ALLOW}" referrerpolicy="no-referrer" style="${escapeHtml(style)}"></iframe>`
  return {
    src,
    title,
    sandbox: IMPERSONATION_SANDBOX,
    allow: IMPERSONATION_ALLOW,
    referrerPolicy: 'no-referrer',
    html,
  }
}

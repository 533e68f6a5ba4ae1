/**
 * The ids of the built-in world (`defaultSeed()`), for tests and scripts: the caller is Ada, owner
 * of Acme. Every team space has the same small folder tree (Campaigns > 2026 Spring, 2026 Autumn >
 * Drafts; Brand assets), and so has Ada's personal space.
 */
export const MEMBERS = {
  /** The caller: the open token and the subscription API key are hers. */
  ada: { id: '1673603133161799680', email: 'ada@acme.com', name: 'Ada Lovelace' },
  /** Member of Acme (upload, view, download). */
  grace: { id: '1673603133161799681', email: 'grace@acme.com', name: 'Grace Hopper' },
  /** Member of Acme on a domain outside its whitelist: impersonation is refused. */
  contractor: { id: '1673603133161799682', email: 'contractor@gmail.com', name: 'Contractor' },
  /** Registered, in no team: can be invited to Acme. */
  linus: { id: '1673603133161799683', email: 'linus@acme.com', name: 'Linus' },
  /** Registered, in no team: can be invited to Acme (acme.cn is whitelisted). */
  margaret: { id: '1673603133161799684', email: 'margaret@acme.cn', name: 'Margaret' },
} as const

/** Team spaces (org ids) and what Ada may do in each. */
export const SPACES = {
  /** Owner; paid; whitelist acme.com, acme.cn; 50 seats; asset events enabled. The team API key is Acme's. */
  acme: '1001',
  /** Admin; trial. */
  globex: '1002',
  /** Member (edit); free; asset events disabled for this team. */
  initech: '1003',
  /** Member (edit); expired 30 days ago: not writable. */
  umbrella: '1004',
  /** Member (upload, view); blank edition. */
  hooli: '1005',
  /** Member (view only): not writable. */
  stark: '1006',
  /** What the folder selector reports for the personal space (never sent to material-save). */
  personal: '1',
} as const

function tree(base: bigint) {
  const id = (n: bigint) => String(base + n)
  return { campaigns: id(1n), spring: id(2n), autumn: id(3n), drafts: id(4n), brand: id(5n) }
}

/** Folder ids per space: `FOLDERS.acme.campaigns`, `FOLDERS.personal.brand`... (19 digits, beyond 2^53). */
export const FOLDERS = {
  personal: tree(1753946835000000000n),
  acme: tree(1753946835010000000n),
  globex: tree(1753946835020000000n),
  initech: tree(1753946835030000000n),
  umbrella: tree(1753946835040000000n),
  hooli: tree(1753946835050000000n),
  stark: tree(1753946835060000000n),
} as const

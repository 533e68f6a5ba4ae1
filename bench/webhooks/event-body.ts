let sequence = 0

/**
 * The benches' asset event (~450 bytes, 19-digit ids as raw JSON integers), unique per call:
 * its eventId is `<prefix>-<pid>-<n>`.
 */
export function eventBody(prefix: string): string {
  const n = sequence++
  const id = 1951438207513255936n + BigInt(n)
  return `{"eventId":"${prefix}-${process.pid}-${n}","eventType":"MATERIAL_DELETED","eventTime":"${1753946860000 + n}","payload":{"materialIds":[${id}],"deleteAction":"RECYCLE","materials":[{"materialId":${id},"name":"hero","materialType":1,"extension":"png","tagIds":[17],"tagNames":["homepage"],"folderIds":[1949870453162360832],"ownerUserId":1673603133161799680,"createUserId":1673603133161799680}]}}`
}

/** How many bodies `eventBody` made in this process. */
export function bodiesMade(): number {
  return sequence
}

/**
 * What `promise` rejects with; a promise that resolves fails the test, saying what happened
 * (`resolved`: "the request succeeded"). `onResolved` cleans up a value that should not exist.
 */
export async function rejectionOf<T>(
  promise: Promise<T>,
  resolved: string,
  onResolved?: (value: T) => unknown,
): Promise<unknown> {
  let value: T
  try {
    value = await promise
  } catch (error) {
    return error
  }
  await onResolved?.(value)
  throw new Error(`Expected a rejection, but ${resolved}.`)
}

// Limits the SDK checks before sending. Kept out of the schema modules so that a client can
// import them without loading zod.

/** The most materials one material-save request holds; `materials.save()` sends longer lists in batches. */
export const MAX_MATERIALS_PER_SAVE = 100

/**
 * The longest life of a login link, in hours (30 days). The service documents no maximum; a login
 * token that lives longer than a month is a liability, so longer values are refused as a likely
 * mistake (spec/openapi.yaml, ImpersonationRequest).
 */
export const MAX_EXPIRY_HOURS = 720

export { jsonResponse, openFailure, openSuccess, teamFailure, teamSuccess } from './envelopes.ts'
export { createFakeFetch, type FakeFetch, type FakeResponder, type RecordedRequest } from './fake-fetch.ts'

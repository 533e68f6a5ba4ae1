import { ServiceError } from '@service-sdk/core'
import { expect, it } from 'vitest'
import { orderingContract } from '../../test/ordering-contract.ts'
import { storeContract } from '../../test/store-contract.ts'
import { WebhookError } from '../errors.ts'
import { memoryStoreForTests } from './memory.ts'

storeContract('memoryStoreForTests', async () => memoryStoreForTests())
orderingContract('memoryStoreForTests', async () => memoryStoreForTests())

it('refuses work once closed, with a retryable store error', async () => {
  const store = memoryStoreForTests()
  await store.close()
  const refused = await store.insert({ key: 'k', eventType: 'X', body: '{}', receivedAt: 1 }).catch((e) => e)
  expect(WebhookError.isInstance(refused) && ServiceError.isInstance(refused)).toBe(true)
  expect(refused).toMatchObject({ code: 'store_unavailable', isRetryable: true })
})

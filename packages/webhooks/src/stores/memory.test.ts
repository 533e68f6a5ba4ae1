import { orderingContract } from '../../test/ordering-contract.ts'
import { storeContract } from '../../test/store-contract.ts'
import { memoryStoreForTests } from './memory.ts'

storeContract('memoryStoreForTests', async () => memoryStoreForTests())
orderingContract('memoryStoreForTests', async () => memoryStoreForTests())

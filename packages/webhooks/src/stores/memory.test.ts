import { storeContract } from '../../test/store-contract.ts'
import { memoryStoreForTests } from './memory.ts'

storeContract('memoryStoreForTests', async () => memoryStoreForTests())

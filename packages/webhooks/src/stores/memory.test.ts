import { memoryStoreForTests } from './memory.ts'
import { storeContract } from './store-contract.ts'

storeContract('memoryStoreForTests', async () => memoryStoreForTests())

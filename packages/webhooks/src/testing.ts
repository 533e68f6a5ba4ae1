export { memoryStoreForTests } from './stores/memory.ts'

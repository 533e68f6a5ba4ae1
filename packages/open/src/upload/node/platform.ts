import type { UploadPlatform } from '../platform/platform.ts'
import { fileCheckpointStore } from './checkpoint-store.ts'
import { createAgents, createNodeHttp } from './http.ts'
import { nodeSigning } from './signing.ts'
import { prepareNodeSource, refuseNodeSource } from './sources.ts'

/**
 * Node: files, Buffers, Blobs and streams; node:http for every OSS request, made and signed by the
 * SDK (keep-alive agents: no socket is opened before the first upload, idle ones do not hold the
 * process); checkpoints in files.
 */
export function createPlatform(): UploadPlatform {
  return {
    refuse: refuseNodeSource,
    prepare: prepareNodeSource,
    http: createNodeHttp(createAgents()),
    signing: nodeSigning,
    checkpointDirectory: fileCheckpointStore,
  }
}

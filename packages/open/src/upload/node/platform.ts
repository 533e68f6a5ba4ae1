import type { UploadPlatform } from '../platform.ts'
import { fileCheckpointStore } from './checkpoint-store.ts'
import { createAgents, createNodeHttp, type NodeAgents } from './http.ts'
import { prepareNodeSource, refuseNodeSource } from './sources.ts'

/** Node: files, Buffers, Blobs and streams; node:http under ali-oss; checkpoints in files. */
export function createPlatform(): UploadPlatform {
  let agents: NodeAgents | undefined
  return {
    refuse: refuseNodeSource,
    prepare: prepareNodeSource,
    http(options) {
      agents ??= createAgents()
      return createNodeHttp(agents, options)
    },
    checkpointDirectory: fileCheckpointStore,
    dispose() {
      agents?.destroy()
      agents = undefined
    },
  }
}

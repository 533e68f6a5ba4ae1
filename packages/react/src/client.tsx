import { ServiceValidationError } from '@service-sdk/core'
import type { OpenClient } from '@service-sdk/open'
import { createContext, type ReactNode, useContext } from 'react'

/**
 * What the upload hooks need of a client: any `OpenClient` (`createOpenClient()` of
 * `@service-sdk/open`, pointed at the service or at your upload proxy) has it.
 */
export type UploadClient = Pick<OpenClient, 'upload'>

const OpenClientContext = createContext<UploadClient | undefined>(undefined)

/** Props of {@link OpenClientProvider}. */
export interface OpenClientProviderProps {
  /** The client every `useUpload` / `useUploads` below uses unless given its own `client`. */
  client: UploadClient
  children?: ReactNode
}

/** Makes `client` the default of the upload hooks rendered inside it. */
export function OpenClientProvider({ client, children }: OpenClientProviderProps): ReactNode {
  return <OpenClientContext.Provider value={client}>{children}</OpenClientContext.Provider>
}

/**
 * The client of the nearest {@link OpenClientProvider}, or `client` when given. Throws a
 * `ServiceValidationError` when there is neither, or when it has no `upload` method.
 */
export function useOpenClient(client?: UploadClient): UploadClient {
  const provided = useContext(OpenClientContext)
  const chosen = client ?? provided
  if (typeof chosen?.upload !== 'function') {
    throw new ServiceValidationError('upload hook options', [
      {
        path: 'client',
        message:
          chosen === undefined
            ? 'no client: pass { client } or render the component inside <OpenClientProvider client={...}>'
            : 'must be an OpenClient (an object with an upload() method)',
      },
    ])
  }
  return chosen
}

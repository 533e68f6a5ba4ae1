import { cookies } from 'next/headers'
import { SESSION_COOKIE } from '@/lib/session'
import { Uploader } from './uploader'

// Read at request time: the selector's URL is the server's configuration, not baked into the build.
export const dynamic = 'force-dynamic'

export default async function Page() {
  const signedIn = (await cookies()).has(SESSION_COOKIE)
  return (
    <main>
      <h1>Upload into the asset library</h1>
      {signedIn ? (
        <Uploader appUrl={process.env.SERVICE_APP_URL ?? ''} />
      ) : (
        <p>
          <a href="/login">Sign in (demo)</a> to upload.
        </p>
      )}
    </main>
  )
}

// mime 2.6 (the Content-Type table ali-oss uses on Node) ships no type declarations. The Node
// signer (upload/node/signing.ts) and the upload proxy import it, for one call each.
declare module 'mime' {
  const mime: { getType(path: string): string | null }
  export default mime
}

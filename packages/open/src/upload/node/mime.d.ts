// mime 2.6 (the Content-Type table ali-oss uses on Node) ships no type declarations; only
// object-signer.ts imports it, for one call.
declare module 'mime' {
  const mime: { getType(path: string): string | null }
  export default mime
}

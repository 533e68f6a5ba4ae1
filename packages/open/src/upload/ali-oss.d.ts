// ali-oss 6.23 ships no type declarations. Only oss-adapter.ts imports it, and types there the
// few calls it makes; nothing of ali-oss reaches the public types.
declare module 'ali-oss' {
  const OSS: new (options: object) => unknown
  export default OSS
}

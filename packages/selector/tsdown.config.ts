import { defineConfig } from 'tsdown'

export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    platform: 'neutral',
    target: 'es2023',
    publint: true,
    // ./iife is a classic script for <script> tags, not a module: nothing to type-check there.
    attw: { profile: 'node16', excludeEntrypoints: ['./iife'] },
    // The docs live in the .d.ts files; the JS users ship stays lean (the 3 KB budget).
    outputOptions: { comments: { jsdoc: false, legal: true, annotation: true } },
    // Nor the `// src/<file>.ts` line rolldown writes where each module starts.
    inputOptions: { experimental: { attachDebugInfo: 'none' } },
  },
  {
    // For a plain <script> tag: `window.ServiceSelector`. Minified: nothing bundles it further.
    entry: { 'service-selector': 'src/index.ts' },
    format: 'iife',
    globalName: 'ServiceSelector',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    dts: false,
    clean: false,
  },
])

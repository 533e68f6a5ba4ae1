export default { root: import.meta.dirname, logLevel: 'warn', build: { outDir: 'dist', emptyOutDir: true } }

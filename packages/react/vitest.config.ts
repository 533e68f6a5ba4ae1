import { project } from '../../vitest.shared.ts'

export default project('react', {
  test: { include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts', 'test/**/*.test.tsx'] },
})

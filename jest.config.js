/** Jest in ESM mode with ts-jest (see DESIGN.md "Stack"). */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.test.json' }],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
  setupFilesAfterEnv: ['<rootDir>/test/helpers/fast-check-seed.ts'],
  testTimeout: 30000,
  // Three on the 2-core machines tests run on: the suite waits a lot (servers, time-outs, child
  // processes) and a third worker fills those waits (258 s against 278–325 s with two; the CPU
  // stays ~96 % busy). Every time bound in the tests is written for a busy machine.
  maxWorkers: 3,
};

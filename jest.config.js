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
  maxWorkers: 2,
};

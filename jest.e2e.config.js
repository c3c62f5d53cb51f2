/** End-to-end tests that drive a real headless Chromium (`npm run test:e2e`); see test/e2e/. */
import base from './jest.config.js';

export default {
  ...base,
  testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 60000,
  maxWorkers: 1,
};

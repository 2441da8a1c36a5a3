/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // ts-jest is resolved through NODE_PATH when the toolchain lives outside the project.
  transform: { '^.+\\.ts$': [require.resolve('ts-jest'), { isolatedModules: true }] },
};

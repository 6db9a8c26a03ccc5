// @ts-check
// CommonJS on purpose: Jest 30 on Node 20 loads a jest.config.ts only through ts-node or
// esbuild-register, and neither is a dependency; JSDoc keeps the config typed all the same.

/**
 * What every tier shares: the swc transform (decorator metadata is what Nest's injection reads).
 * @type {import('jest').Config}
 */
const base = {
  transform: {
    '^.+\\.[tj]s$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
  },
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  // openid-client and its dependencies are ES modules only: jest's CommonJS runtime on Node 20 loads them
  // once compiled by the same swc transform (node itself requires them as they are). The OTLP exporter
  // loads `http` with a dynamic import(), which jest's runtime refuses without --experimental-vm-modules:
  // the same transform turns it into a require.
  transformIgnorePatterns: ['/node_modules/(?!(openid-client|oauth4webapi|jose|@opentelemetry/otlp-exporter-base)/)'],
};

/** @type {import('jest').Config} */
module.exports = {
  // The display names are what `--selectProjects unit|integration|e2e` (npm run test:*) selects.
  projects: [
    { ...base, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/web/src/**/*.spec.ts'] },
    // These tiers start real servers (a PostgreSQL of their own, the app, the CLI) in hooks: on a busy
    // 2-core machine that takes longer than jest's 5 s default, which is a timing failure, not a bug.
    {
      ...base,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.int-spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/fixtures/server-tier-timeout.ts'],
    },
    {
      ...base,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/fixtures/server-tier-timeout.ts'],
    },
  ],
};

import type { CodegenConfig } from '@graphql-codegen/cli';

// Types for every operation the console sends, from the schema the service emits (npm run web:schema):
// a schema change that breaks a screen breaks `tsc -p web`.
const config: CodegenConfig = {
  schema: 'web/schema.graphql',
  documents: ['web/src/**/*.{ts,tsx}', '!web/src/gql/**'],
  ignoreNoDocuments: false,
  generates: {
    'web/src/gql/': {
      preset: 'client',
      config: { documentMode: 'string', useTypeImports: true, enumsAsTypes: true, scalars: { JSON: 'unknown', Timestamp: 'string' } },
      presetConfig: { fragmentMasking: false },
    },
  },
};

export default config;

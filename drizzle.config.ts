import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes SQL migrations into migrations/; they are never edited after they land.
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/database/schema/index.ts',
  out: './migrations',
});

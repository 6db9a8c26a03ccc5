import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The console is built into web/dist, which the service serves at / (same origin as /api and /graphql).
// `npm run dev:web` serves it with hot reload on :5173 and forwards the API to a running service
// (SWITCHBOARD_URL, default http://127.0.0.1:3000).
const service = process.env.SWITCHBOARD_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, target: 'es2022' },
  server: {
    port: 5173,
    proxy: {
      '/api': service,
      '/health': service,
      '/graphql': { target: service, ws: true },
    },
  },
});

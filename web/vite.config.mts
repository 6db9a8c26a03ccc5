import react from '@vitejs/plugin-react';
import * as path from 'node:path';
import { defineConfig, type ProxyOptions } from 'vite';

// The console is built into web/dist, which the service serves at / (same origin as /api and /graphql).
// `npm run dev:web` serves it with hot reload on :5173 and forwards the API to a running service
// (SWITCHBOARD_URL, default http://127.0.0.1:3000).
const service = process.env.SWITCHBOARD_URL ?? 'http://127.0.0.1:3000';
const DEV_PORT = 5173;
const DEV_ORIGINS = new Set([`http://localhost:${DEV_PORT}`, `http://127.0.0.1:${DEV_PORT}`]);

/**
 * The service answers only Host names and page origins of its own (docs/security.md). The dev server
 * stands in for it: the Host becomes the service's (changeOrigin), and so does the Origin of the dev
 * server's own pages; any other page's Origin is passed on as it came, and refused.
 */
const asTheServiceItself: ProxyOptions = {
  target: service,
  changeOrigin: true,
  configure: (proxy) => {
    const rewrite = (
      proxyRequest: { setHeader(name: string, value: string): unknown },
      request: { headers: Record<string, string | string[] | undefined> },
    ) => {
      const origin = request.headers.origin;
      if (typeof origin === 'string' && DEV_ORIGINS.has(origin)) proxyRequest.setHeader('origin', new URL(service).origin);
    };
    proxy.on('proxyReq', rewrite);
    proxy.on('proxyReqWs', rewrite);
  },
};

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    // The GraphQL IDE (GraphiQL, served at GET /graphql for a browser) is an entry of its own: its editor
    // (Monaco) is loaded by that page only, never by the console's.
    rollupOptions: { input: { console: path.join(import.meta.dirname, 'index.html'), graphiql: path.join(import.meta.dirname, 'graphiql.html') } },
  },
  server: {
    port: DEV_PORT,
    proxy: {
      '/api': asTheServiceItself,
      '/health': asTheServiceItself,
      '/graphql': { ...asTheServiceItself, ws: true },
    },
  },
});

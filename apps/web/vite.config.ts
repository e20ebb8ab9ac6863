import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { inlineEntryCss } from './build/inline-entry-css.js';
import { webpVariants } from './build/webp-variants.js';

export default defineConfig({
  plugins: [react(), webpVariants(path.join(import.meta.dirname, 'public')), inlineEntryCss()],
  // Workspace packages are bundled from their TypeScript source.
  resolve: { conditions: ['@prodshot/source', ...defaultClientConditions] },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/sitemap.xml': 'http://127.0.0.1:3000',
      '/socket.io': { target: 'ws://127.0.0.1:3000', ws: true },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Everything the entry imports statically ships as one file. Left to itself, Rolldown split
        // a dozen small common chunks out of it (React, the query core, the API client…), each a
        // request of the first wave that a phone's link pays a round trip for (bench:web, /dashboard:
        // LCP 2.4-2.6 s split, 2.1-2.3 s whole). Pages' own chunks stay split as before.
        codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
      },
    },
  },
});

import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { webpVariants } from './build/webp-variants.js';

export default defineConfig({
  plugins: [react(), webpVariants(path.join(import.meta.dirname, 'public'))],
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
  build: { outDir: 'dist', sourcemap: true },
});

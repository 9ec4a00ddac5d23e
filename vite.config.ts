import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { resolve } from 'node:path';

// The web app lives in src/web and builds into dist/web (or WEB_DIR), which the server serves.
export default defineConfig({
  root: 'src/web',
  publicDir: '../../public',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: process.env.WEB_DIR ? resolve(process.env.WEB_DIR) : '../../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    // .vite/manifest.json: scripts/bundle-budget.ts follows it to the landing page's chunks.
    manifest: true,
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: { '/api': 'http://localhost:5000', '/ws': { target: 'ws://localhost:5000', ws: true } },
  },
});

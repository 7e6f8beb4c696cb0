import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';

/**
 * Builds the Electron main process, the sandboxed preload (CommonJS, `.cjs`) and the renderer.
 * The renderer build in out/renderer is also what the browser host serves.
 */
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rolldownOptions: {
        // `host`: the browser host (electron/host/cli.ts) as plain JS; the e2e tests start it from here. `hub`: the
        // store hub (hub/cli.ts), which the tests start from here too (test/support/hub-process.ts).
        input: { main: resolve('electron/main.ts'), host: resolve('electron/host/cli.ts'), hub: resolve('hub/cli.ts') },
        // Shared code beside the entries, not in chunks/: paths in it are relative to its file (`../../resources`).
        output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rolldownOptions: {
        input: { preload: resolve('electron/preload.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('renderer'),
    plugins: [react()],
    build: {
      outDir: resolve('out/renderer'),
      emptyOutDir: true,
      // Minified (electron-vite leaves it off): the till's window and each browser parse half (3.3 MB → 1.7 MB).
      minify: true,
      rolldownOptions: { input: { index: resolve('renderer/index.html'), hub: resolve('renderer/hub.html') } },
    },
  },
});

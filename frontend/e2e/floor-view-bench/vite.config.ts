import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The floor view bench page (bench/floor-view.bench.ts builds it into a temporary folder). */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  logLevel: 'warn',
  build: { emptyOutDir: true, target: 'es2022' },
});

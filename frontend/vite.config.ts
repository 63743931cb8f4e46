import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiServer = 'http://localhost:3000';

// Vendor code changes far less often than app code: separate chunks keep it cached across deploys.
const vendorChunks: { name: string; test: RegExp }[] = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
  { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/ },
  { name: 'amplify-ui', test: /node_modules[\\/](@aws-amplify|@radix-ui|@floating-ui|aws-amplify)[\\/]/ },
];

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: vendorChunks.map((chunk, index) => ({ ...chunk, priority: vendorChunks.length - index })),
        },
      },
    },
  },
  server: {
    // Regex keys: a plain '/api' prefix would also swallow the front end's own /api-docs route.
    proxy: {
      '^/api/': { target: apiServer, changeOrigin: false },
      '^/integrations(/|$)': { target: apiServer, changeOrigin: false },
      '^/config\\.json$': { target: apiServer, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '^/api/': { target: apiServer, changeOrigin: false },
      '^/integrations(/|$)': { target: apiServer, changeOrigin: false },
      '^/config\\.json$': { target: apiServer, changeOrigin: false },
    },
  },
});

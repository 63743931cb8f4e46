import '@aws-amplify/ui-react/styles.css';
import './app/styles.css';
import { StrictMode } from 'react';
import * as z from 'zod/mini';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { bootstrapSession } from './app/sessionBootstrap';
import { startThemeSync } from './app/themeSync';

// The content security policy allows no eval: zod validates without compiling (no CSP report).
z.config({ jitless: true });

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// Started before the first render so the refresh runs in parallel with React's startup.
bootstrapSession();
// The boot script (public/theme-boot.js) painted this device's copy; the session brings the server's.
startThemeSync();

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

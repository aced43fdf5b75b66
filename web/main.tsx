import './lib/zod-config';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/App';
import './styles.css';

const container = document.getElementById('root')!;
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// A public page arrives prerendered (its HTML built by scripts/vite/prerender.ts) and is hydrated;
// the client-only areas (/admin, the dealer area) arrive as the empty shell and are rendered here.
if (container.firstElementChild) hydrateRoot(container, app);
else createRoot(container).render(app);

/** The store hub's manager UI entry (renderer/hub.html), served by the hub (hub/server.ts). */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { HubApp } from './HubApp.tsx';
import '../ui/base.css';
import './hub.css';

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <HubApp />
  </StrictMode>,
);

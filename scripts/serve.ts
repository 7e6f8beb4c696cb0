/** `npm run serve`: builds the renderer if needed, then runs the browser host (electron/host/cli.ts). */
import { buildIfStale } from './build-if-stale.ts';
import { main } from '../electron/host/cli.ts';

buildIfStale();
await main();

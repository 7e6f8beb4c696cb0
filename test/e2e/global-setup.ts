import { buildIfStale } from '../../scripts/build-if-stale.ts';

/** The host serves out/renderer: build it once before the e2e run. */
export default function globalSetup(): void {
  buildIfStale();
}

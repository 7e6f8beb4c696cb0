import { buildIfStale } from '../../scripts/build-if-stale.ts';

/**
 * The host serves out/renderer: build it once before the e2e run. The build is then as new as the sources, so
 * the tests start the host from it (test/support/host-process.ts).
 */
export default function globalSetup(): void {
  buildIfStale();
  process.env.KASA_TEST_HOST_BUILT = '1';
}

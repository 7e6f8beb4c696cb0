/**
 * What a test opened (a server, a printer stand-in, a directory), closed after each test, newest first:
 * `const later = cleanupAfterEach();` in a file, then `later(() => server.close())` in a test.
 */
import { afterEach } from 'vitest';

export function cleanupAfterEach(): (c: () => unknown) => void {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return (c) => {
    cleanups.push(c);
  };
}

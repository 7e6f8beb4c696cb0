/** The standalone sandbox: one JSON line on stdout, serves, exits cleanly on SIGTERM. */
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { describe, expect, it } from 'vitest';

describe('npm run sandbox', () => {
  it('prints its URL as one JSON line and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['electron/sandbox/cli.ts', '--port', '0', '--latency', '0'], {
      cwd: new URL('../..', import.meta.url).pathname,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const lines = readline.createInterface({ input: child.stdout });
    const first = await new Promise<string>((resolve, reject) => {
      lines.once('line', resolve);
      child.once('exit', () => reject(new Error('exited before printing')));
    });
    const info = JSON.parse(first) as { url: string };
    expect(Object.keys(info)).toEqual(['url']);
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const r = await fetch(`${info.url}/receipt/tax-rates`, { headers: { Authorization: 'Bearer demo-key' } });
    expect(r.status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe('npm run sandbox with bad flags', () => {
  it.each([[['--unknown-flag']], [['--variant', 'nope']], [['--port']]])(
    '%j: one usage line, exit 2, no stack trace',
    async (args) => {
      const child = spawn(process.execPath, ['electron/sandbox/cli.ts', ...args], {
        cwd: new URL('../..', import.meta.url).pathname,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      let stdout = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).not.toMatch(/\n\s+at /);
      expect(stderr).toMatch(/^usage: npm run sandbox --/m);
      expect(stderr.trim().split('\n')).toHaveLength(2);
    },
  );
});

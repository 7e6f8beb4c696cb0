/**
 * Standalone sandbox gateway: `npm run sandbox -- --port <n> [--data <file>] [--latency <ms>] [--host <ip>]`.
 * Prints exactly one JSON line `{"url":"http://127.0.0.1:<port>"}` to stdout, then serves until
 * SIGTERM or SIGINT.
 */
import { parseArgs } from 'node:util';
import { startSandbox, type SandboxOptions } from './server.ts';

function fail(message: string): never {
  process.stderr.write(`sandbox: ${message}\n`);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string' },
    data: { type: 'string' },
    latency: { type: 'string' },
  },
  strict: true,
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`invalid --port ${values.port}`);
const options: SandboxOptions = { port };
if (values.host) options.host = values.host;
if (values.data) options.dataFile = values.data;
if (values.latency !== undefined) {
  const latency = Number(values.latency);
  if (!Number.isFinite(latency) || latency < 0) fail(`invalid --latency ${values.latency}`);
  options.latencyMs = latency;
}

const sandbox = await startSandbox(options);
process.stdout.write(`${JSON.stringify({ url: sandbox.url })}\n`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  sandbox.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

/**
 * Standalone sandbox gateway: `npm run sandbox -- --port <n> [--data <file>] [--latency <ms>] [--host <ip>]
 * [--variant spec|sdk] [--bulk-delay <ms per receipt>]`.
 * Prints exactly one JSON line `{"url":"http://127.0.0.1:<port>"}` to stdout, then serves until
 * SIGTERM or SIGINT.
 */
import { parseArgs } from 'node:util';
import { startSandbox, type SandboxOptions } from './server.ts';
import { SandboxVariantSchema } from './variant.ts';

const USAGE =
  'usage: npm run sandbox -- [--port <n>] [--host <ip>] [--data <file>] [--latency <ms>] [--variant spec|sdk] [--bulk-delay <ms>]';

function fail(message: string): never {
  process.stderr.write(`sandbox: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function parse() {
  try {
    return parseArgs({
      options: {
        port: { type: 'string', default: '0' },
        host: { type: 'string' },
        data: { type: 'string' },
        latency: { type: 'string' },
        variant: { type: 'string', default: 'spec' },
        'bulk-delay': { type: 'string' },
      },
      strict: true,
    });
  } catch (e) {
    // An unknown flag or a missing value: one line, no stack trace.
    return fail(e instanceof Error ? (e.message.split('\n')[0] ?? 'bad arguments') : 'bad arguments');
  }
}
const { values } = parse();

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

const variant = SandboxVariantSchema.safeParse(values.variant);
if (!variant.success) fail(`invalid --variant ${values.variant} (spec or sdk)`);
options.variant = variant.data;
if (values['bulk-delay'] !== undefined) {
  const delay = Number(values['bulk-delay']);
  if (!Number.isFinite(delay) || delay < 0) fail(`invalid --bulk-delay ${values['bulk-delay']}`);
  options.bulkDelayMsPerReceipt = delay;
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

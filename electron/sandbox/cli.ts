/**
 * Standalone sandbox gateway: `npm run sandbox -- --port <n> [--data <file>] [--latency <ms>] [--host <ip>]
 * [--variant spec|sdk] [--bulk-delay <ms per receipt>]`.
 * Prints exactly one JSON line `{"url":"http://127.0.0.1:<port>"}` to stdout, then serves until
 * SIGTERM or SIGINT.
 */
import { announceAndServe, numberFlag, parseFlags, serverFlags, usageError } from '../../shared/node/cli.ts';
import { startSandbox, type SandboxOptions } from './server.ts';
import { SandboxVariantSchema } from './variant.ts';

const fail = usageError(
  'sandbox',
  'usage: npm run sandbox -- [--port <n>] [--host <ip>] [--data <file>] [--latency <ms>] [--variant spec|sdk] [--bulk-delay <ms>]',
);
const values = parseFlags(
  serverFlags({
    latency: { type: 'string' },
    variant: { type: 'string', default: 'spec' },
    'bulk-delay': { type: 'string' },
  }),
  fail,
);

const options: SandboxOptions = { port: numberFlag('port', values.port, fail, { integer: true, max: 65535 }) };
if (values.host) options.host = values.host;
if (values.data) options.dataFile = values.data;
if (values.latency !== undefined) options.latencyMs = numberFlag('latency', values.latency, fail);
const variant = SandboxVariantSchema.safeParse(values.variant);
if (!variant.success) fail(`invalid --variant ${values.variant} (spec or sdk)`);
options.variant = variant.data;
if (values['bulk-delay'] !== undefined)
  options.bulkDelayMsPerReceipt = numberFlag('bulk-delay', values['bulk-delay'], fail);

announceAndServe(await startSandbox(options));

/**
 * Standalone L-PFR sandbox: `npm run lpfr-sandbox -- [--port <n>] [--host <ip>] [--data <dir>] [--pin <4 digits>]
 * [--uid <8 chars>] [--tax-rates <group.json>] [--keep <n>]`. The tax rates file is one group as `GET /status` serves
 * `currentTaxRates` ({validFrom, groupId, taxCategories}); default: the gateway sandbox's demo group.
 * Prints exactly one JSON line `{"url":"http://127.0.0.1:<port>"}` to stdout, then serves until SIGTERM or
 * SIGINT. The PIN is never printed.
 */
import fs from 'node:fs';
import { announceAndServe, numberFlag, parseFlags, serverFlags, usageError } from '../../../shared/node/cli.ts';
import { TaxGroupSchema } from '../../../electron/sandbox/tax-schedule.ts';
import { startLpfrSandbox, type LpfrSandboxOptions } from './server.ts';

const fail = usageError(
  'lpfr-sandbox',
  'usage: npm run lpfr-sandbox -- [--port <n>] [--host <ip>] [--data <dir>] [--pin <4 digits>] [--uid <8 chars>] [--tax-rates <group.json>] [--keep <n>]',
);
const values = parseFlags(
  serverFlags({
    pin: { type: 'string' },
    uid: { type: 'string' },
    'tax-rates': { type: 'string' },
    keep: { type: 'string' },
  }),
  fail,
);

const options: LpfrSandboxOptions = { port: numberFlag('port', values.port, fail, { integer: true, max: 65535 }) };
if (values.host) options.host = values.host;
if (values.keep !== undefined) options.keepRequests = numberFlag('keep', values.keep, fail, { integer: true, min: 1 });
if (values.data) options.dataDir = values.data;
if (values.pin !== undefined) {
  if (!/^\d{4}$/.test(values.pin)) fail('invalid --pin (4 digits)');
  options.pin = values.pin;
}
if (values.uid !== undefined) {
  if (!/^[A-Z0-9]{8}$/.test(values.uid)) fail(`invalid --uid ${values.uid} (8 characters A-Z 0-9)`);
  options.uid = values.uid;
}

if (values['tax-rates'] !== undefined) {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(values['tax-rates'], 'utf8'));
  } catch (e) {
    fail(`cannot read --tax-rates ${values['tax-rates']}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const group = TaxGroupSchema.safeParse(raw);
  if (!group.success)
    fail(`invalid --tax-rates: ${group.error.issues[0]?.path.join('.') ?? ''} ${group.error.issues[0]?.message ?? ''}`);
  options.taxRates = group.data;
}

announceAndServe(await startLpfrSandbox(options));

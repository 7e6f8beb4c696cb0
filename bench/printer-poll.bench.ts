/**
 * printer-poll: the CPU the idle status poll costs, as % of one core. The print service (real SQLite file)
 * asks the fake Epson printer (test/printer/fake-epson.ts, real TCP) at the real interval
 * (STATUS_POLL_MS); the printer runs in a child process so its own CPU is not counted. Measured with
 * process.cpuUsage over a fixed idle period after a warm-up. Limit: 1 % of one core.
 *
 *   node_modules/.bin/node bench/printer-poll.bench.ts   (BENCH_POLL_SECONDS=30 by default)
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createPrintService, STATUS_POLL_MS } from '../electron/printer/service.ts';
import { createTransportFactory } from '../electron/printer/transport.ts';
import { memorySettings, tempDb } from '../test/printer/helpers.ts';
import { startFakeEpson } from '../test/printer/fake-epson.ts';
import { benchLine } from './format.ts';

if (process.argv.includes('--printer')) {
  // The child: the printer, until its parent closes stdin.
  const printer = await startFakeEpson();
  process.stdout.write(`${printer.port}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void printer.close().then(() => process.exit(0)));
} else {
  const seconds = Number(process.env.BENCH_POLL_SECONDS ?? 30);
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--printer'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
    child.once('exit', (code) => reject(new Error(`printer exited ${code}`)));
  });
  const t = tempDb();
  let polls = 0;
  const real = createTransportFactory();
  const service = createPrintService({
    // The real transport, each ask counted (no timer of the bench's own runs during the measurement).
    transport: (target) => {
      const t = real(target);
      const ask = t.ask;
      return ask ? { ...t, ask: (exchange) => (polls++, ask(exchange)) } : t;
    },
    db: t.db,
    settings: memorySettings({ 'printer.uri': `tcp://127.0.0.1:${port}`, 'printer.profile': 'epson-tm-t88v' }),
    emit: () => undefined,
    env: {},
    getReceipt: () => null,
  });
  try {
    service.start();
    // Warm-up: the first polls (module code compiled, the statements prepared).
    await service.check();
    await new Promise((r) => setTimeout(r, STATUS_POLL_MS + 500));
    const answered = () => (service.status().printer.checkedAt === null ? 0 : 1);
    if (!answered()) throw new Error('the printer did not answer the poll');
    polls = 0;
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const cpu = process.cpuUsage(cpu0);
    const elapsedUs = Number(process.hrtime.bigint() - t0) / 1000;
    const percent = ((cpu.user + cpu.system) / elapsedUs) * 100;
    process.stderr.write(
      `printer-poll: ${polls} polls in ${seconds} s (every ${STATUS_POLL_MS} ms), ` +
        `${((cpu.user + cpu.system) / 1000).toFixed(1)} ms CPU\n`,
    );
    if (polls < Math.floor((seconds * 1000) / STATUS_POLL_MS) - 1) throw new Error(`only ${polls} polls`);
    console.log(benchLine('printer-poll', 'idle_cpu', percent, 1, '%'));
  } finally {
    await service.stop();
    t.cleanup();
    child.stdin.end();
  }
}

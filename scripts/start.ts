/**
 * `npm start`: the desktop app in Electron when its binary is present; otherwise says why and starts the
 * browser host, printing the address to open.
 */
import { spawn } from 'node:child_process';
import { buildIfStale, ROOT } from './build-if-stale.ts';
import { electronBinary } from './electron-binary.ts';

buildIfStale();
const bin = electronBinary();
if (bin.path !== null) {
  const child = spawn(bin.path, [ROOT], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  process.stderr.write(
    `Electron is not available on this machine (${bin.reason}).\n` +
      'Starting the browser host instead: open the address printed below in a browser.\n',
  );
  const { main } = await import('../electron/host/cli.ts');
  await main();
}

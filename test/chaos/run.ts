/**
 * `npm run chaos -- --kills N [--orders-per-life M] [--seed S] [--lpfr [--keep K]]`: the long chaos run; prints its
 * figures. `--lpfr`: the shop has an L-PFR too, up, down, without its card or faulty at random (chaos.ts); `--keep K`:
 * it remembers only its last K RequestIds, as real devices do (ML: 1, OFS: 100).
 */
import { parseArgs } from 'node:util';
import { runChaos } from './chaos.ts';

const { values } = parseArgs({
  options: {
    kills: { type: 'string', default: '100' },
    'orders-per-life': { type: 'string', default: '10' },
    seed: { type: 'string', default: '42' },
    lpfr: { type: 'boolean', default: false },
    keep: { type: 'string' },
  },
});
const r = await runChaos({
  kills: Number(values.kills),
  ordersPerLife: Number(values['orders-per-life']),
  seed: Number(values.seed),
  lpfr: values.lpfr,
  ...(values.keep !== undefined ? { keep: Number(values.keep) } : {}),
  log: (l) => process.stderr.write(l + '\n'),
});
console.log(
  `orders=${r.orders} kills=${r.kills} duplicates=${r.duplicates} lost=${r.lost}` +
    (values.keep !== undefined ? ` keep=${values.keep}` : ''),
);
console.log(`acknowledged=${r.acknowledged} unfiscalized=${r.unfiscalized} seconds=${r.seconds.toFixed(1)}`);
if (r.signedByLpfr !== undefined)
  console.log(
    `signedByLpfr=${r.signedByLpfr} signedByGateway=${r.orders - r.signedByLpfr - r.unfiscalized} wrongProcessor=${r.wrongProcessor}`,
  );
const clean = r.duplicates === 0 && r.lost === 0 && r.unfiscalized === 0 && (r.wrongProcessor ?? 0) === 0;
process.exit(clean ? 0 : 1);

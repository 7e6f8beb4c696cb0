/** `npm run chaos -- --kills N [--orders-per-life M] [--seed S]`: the long chaos run; prints its figures. */
import { parseArgs } from 'node:util';
import { runChaos } from './chaos.ts';

const { values } = parseArgs({
  options: {
    kills: { type: 'string', default: '100' },
    'orders-per-life': { type: 'string', default: '10' },
    seed: { type: 'string', default: '42' },
  },
});
const r = await runChaos({
  kills: Number(values.kills),
  ordersPerLife: Number(values['orders-per-life']),
  seed: Number(values.seed),
  log: (l) => process.stderr.write(l + '\n'),
});
console.log(`orders=${r.orders} kills=${r.kills} duplicates=${r.duplicates} lost=${r.lost}`);
console.log(`acknowledged=${r.acknowledged} unfiscalized=${r.unfiscalized} seconds=${r.seconds.toFixed(1)}`);
process.exit(r.duplicates === 0 && r.lost === 0 && r.unfiscalized === 0 ? 0 : 1);

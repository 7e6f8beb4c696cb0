/**
 * `npm run hub-chaos -- [--backend pglite|postgres|both] [--kills N] [--orders-per-life M] [--seed S]`: the long hub
 * chaos run.
 */
import { parseArgs } from 'node:util';
import { runHubChaos } from './chaos.ts';

const { values } = parseArgs({
  options: {
    backend: { type: 'string', default: 'both' },
    kills: { type: 'string', default: '60' },
    'orders-per-life': { type: 'string', default: '10' },
    seed: { type: 'string', default: '42' },
  },
});
const backends =
  values.backend === 'both'
    ? (['pglite', 'postgres'] as const)
    : values.backend === 'postgres'
      ? (['postgres'] as const)
      : (['pglite'] as const);
let bad = 0;
for (const backend of backends) {
  const r = await runHubChaos({
    backend,
    kills: Number(values.kills),
    ordersPerLife: Number(values['orders-per-life']),
    seed: Number(values.seed),
    log: (l) => process.stderr.write(l + '\n'),
  });
  console.log(
    `${backend}: orders=${r.orders} acknowledged=${r.acknowledged} kills=${JSON.stringify(r.kills)} lost=${r.lost} foreign=${r.foreign} gaps=${r.gaps} stale=${r.stale} stock: sales=${r.stock.sales} movements=${r.stock.movements} lost=${r.stock.lost} doubled=${r.stock.doubled} off-book=${r.stock.offBook} refunds: fired=${r.refunds.fired} at-hub=${r.refunds.orders} movements=${r.refunds.movements} lost=${r.refunds.lost} doubled=${r.refunds.doubled} seconds=${r.seconds.toFixed(1)}`,
  );
  if (r.lost || r.foreign || r.gaps || r.stale || r.stock.lost || r.stock.doubled || r.stock.offBook) bad++;
  if (r.refunds.lost || r.refunds.doubled) bad++;
}
process.exit(bad ? 1 : 0);

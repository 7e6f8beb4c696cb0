/**
 * The hub's receipts CSV is named by its own days in the shop's zone, as the till's CSVs are (issue 38): it was
 * `kasa-hub-receipts.csv` whatever the period, so two downloads overwrote each other in the accountant's folder.
 */
import { describe, expect, it } from 'vitest';
import { dayIn } from '../../shared/i18n/time.ts';
import { BACKENDS } from './backends.ts';
import { serveHub } from './served-hub.ts';

const ADMIN = 'admin-token-for-tests-0123456789ab';
const pglite = BACKENDS.filter((b) => b.name === 'pglite');

describe.each(pglite)('the hub receipts CSV file name on $name', (backend) => {
  const hub = serveHub(backend, { adminToken: ADMIN, defaultShop: true });

  const fileName = async (query: string): Promise<string | null> => {
    const res = await fetch(`${hub.url}/api/admin/report?shopId=${hub.shop}&format=receipts${query}`, {
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    expect(res.status).toBe(200);
    await res.text();
    return /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? null;
  };

  it('names one Belgrade day by that day, not by its UTC start (the day before)', async () => {
    // 27 November in Belgrade: from 23:00 UTC on the 26th.
    const q = `&from=2026-11-26T23:00:00.000Z&to=2026-11-27T23:00:00.000Z&timeZone=Europe%2FBelgrade`;
    expect(await fileName(q)).toBe('kasa-hub-receipts-2026-11-27.csv');
  });

  it('names a week by its first and last day', async () => {
    const q = `&from=2026-11-20T23:00:00.000Z&to=2026-11-27T23:00:00.000Z&timeZone=Europe%2FBelgrade`;
    expect(await fileName(q)).toBe('kasa-hub-receipts-2026-11-21_2026-11-27.csv');
  });

  it("names today's list (no period asked) by today in the shop's zone", async () => {
    const before = dayIn(new Date());
    const name = await fileName('');
    const after = dayIn(new Date());
    expect([`kasa-hub-receipts-${before}.csv`, `kasa-hub-receipts-${after}.csv`]).toContain(name);
  });
});

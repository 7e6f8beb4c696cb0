/**
 * The hub service composed of its areas (hub/services/, issue 39) keeps the interface hub/server.ts and the tests
 * call: exactly the methods the one closure had, each provided by one area. A name two areas provide stops the
 * start, naming both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHubService, type HubService } from '../../hub/service.ts';
import { composeAreas } from '../../hub/services/shared.ts';
import { BACKENDS } from './backends.ts';

/** The service's members before the split (hub/service.ts as one closure), in name order, and those added since. */
const INTERFACE = [
  'addStaff',
  'adoptCatalog',
  'authenticate',
  'bulkPrice',
  'changes',
  'clearClaims',
  'closeDays',
  'createShop',
  'db',
  'enrol',
  'enrolCodes',
  'ensureDefaultShop',
  'listStaff',
  'loginShop',
  'lookup',
  'maintenance',
  'managers',
  'newEnrolCode',
  'noteRefusal',
  'offerStaff',
  'orderCount',
  'productGroups',
  'productPage',
  'productsCsv',
  'pruneEvents',
  'push',
  'receipts',
  'report',
  'revokeEnrolCode',
  'revokeTill',
  // Issue 39 (hub-pins): a person's own PIN change through the hub.
  'setOwnPin',
  'setShopSettings',
  'setStaffActive',
  'setStaffPin',
  'shopPeople',
  'shopSettings',
  'shops',
  'taxLabels',
  'tillStaffChange',
  'tillStatus',
  'upsertProducts',
  'upsertStaff',
  // The prices area (issue 42).
  'applyDuePrices',
  'priceChanges',
  'shopPrices',
  'putPriceList',
  'putPromotion',
  'schedulePrice',
  'deletePrice',
  // The goods area (issue 40): the shop's stock book, its documents, transfers and the KEP.
  'changePrice',
  'goodsDocs',
  'goodsDocsForKep',
  'kep',
  'postReceipt',
  'receiveTransfer',
  'sendTransfer',
  'shopNameOf',
  'stock',
  'tillStock',
  'transfer',
  'transfers',
  'writeOff',
  // The hub's goods register: suppliers, the shop's PIB and address, the tills' VAT rates.
  'suppliers',
  'putSupplier',
  'shopIdentity',
  'setShopIdentity',
  'goodsTaxRates',
  // Receipt drafts and reversals, minimums and the reorder list at the hub.
  'goodsReceipts',
  'saveDraft',
  'deleteDraft',
  'postDraft',
  'reverseReceipt',
  'receiptForPrint',
  'setMinimum',
  'minimums',
  'reorder',
  // Stock-taking at the hub.
  'countStart',
  'countEnter',
  'countImport',
  'countPost',
  'countCancel',
  'countView',
  'counts',
  // A supplier's CSV and late drafts; a till's own book as the opening stock (issue 40, part 8).
  'receiptCsvLines',
  'lateReceiptDays',
  'goodsOpening',
  // What a till enters for the shop's book (docs/goods.md): its receipt drafts and its count entries.
  'saveTillDraft',
  'tillCountEntry',
  'tillOpenCounts',
  // The shop's account map of the bookkeeper's export (issue 41 part 2).
  'exportAccounts',
  'saveExportAccounts',
  // The shop's e-invoices sent from the hub (issue 41, docs/sef.md "Sending from the hub").
  'publishSefFromHub',
  'sefDocuments',
  'sefRetry',
  'sefCancel',
  'sefPass',
];

const backend = BACKENDS[0]!;

describe('the hub service by area', () => {
  let opened: Awaited<ReturnType<typeof backend.open>>;
  let hub: HubService;
  beforeAll(async () => {
    opened = await backend.open();
    hub = createHubService(opened.db);
  });
  afterAll(async () => {
    await opened.dispose();
  });

  it('has exactly the members it had as one closure, every method a function', async () => {
    expect(Object.keys(hub).sort()).toEqual([...INTERFACE].sort());
    for (const name of INTERFACE.filter((n) => n !== 'db'))
      expect(typeof hub[name as Exclude<keyof HubService, 'db'>], name).toBe('function');
    // Composed, the areas work together: a shop made by the admin area is the one the tills area enrols into.
    const shopId = await hub.ensureDefaultShop();
    const { tillId } = await hub.enrol(await hub.newEnrolCode(shopId), 'Каса 1');
    expect((await hub.tillStatus(shopId)).map((t) => t.tillId)).toEqual([tillId]);
  });

  it('refuses a method two areas provide, naming both', () => {
    expect(() => composeAreas({ tills: { push: () => 1 }, catalog: { push: () => 2 } })).toThrow(
      'hub service: push in both tills and catalog',
    );
  });
});

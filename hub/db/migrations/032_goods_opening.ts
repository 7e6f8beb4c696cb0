import type { HubMigration } from './index.ts';

/**
 * A till's own goods book brought to the hub as its shop's opening stock (issue 40 part 8, docs/goods.md "A till
 * enrolled later brings its book"): `hub_goods_openings` keeps, per shop, the idempotency key of each opening the
 * hub took, the till that sent it and its document (`hub_goods_docs`, kind `opening`), so a resend of the same
 * opening answers that document and moves nothing.
 */
export const h032: HubMigration = {
  name: 'goods_opening',
  statements: [
    `CREATE TABLE hub_goods_openings (
       shop_id integer NOT NULL REFERENCES shops(id), key text NOT NULL, till_id integer NOT NULL REFERENCES tills(id),
       doc_id integer NOT NULL UNIQUE REFERENCES hub_goods_docs(id), at text NOT NULL, PRIMARY KEY (shop_id, key))`,
  ],
};

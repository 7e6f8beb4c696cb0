import type { HubMigration } from './index.ts';

/**
 * Parked carts of a shop's tills, so another till of the shop takes one over the LAN (the internet may be
 * down). `(till_id, local_id)` is the cart on the till that parked it: a repeated push is one row. Taking a
 * cart is one `DELETE … RETURNING`: whoever deletes the row owns the cart, so it is resumed at most once.
 */
export const h003: HubMigration = {
  name: 'parked_carts',
  statements: [
    `CREATE TABLE parked_carts (
       id bigserial PRIMARY KEY, shop_id integer NOT NULL REFERENCES shops(id), till_id integer NOT NULL REFERENCES tills(id),
       local_id bigint NOT NULL, name text, created_at text NOT NULL, cart jsonb NOT NULL,
       lines integer NOT NULL, total_para bigint NOT NULL, UNIQUE (till_id, local_id))`,
    `CREATE INDEX parked_carts_shop ON parked_carts (shop_id, id)`,
  ],
};

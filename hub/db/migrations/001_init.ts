import type { HubMigration } from './index.ts';

/**
 * The hub's first schema: a chain of shops, enrolment codes and tills (credentials as SHA-256 hashes),
 * the tills' history (every event once, by till and sequence; every order once, by till and order
 * number), and the master data sent down with a change cursor (`change_seq`).
 */
export const h001: HubMigration = {
  name: 'init',
  statements: [
    `CREATE TABLE chains (id serial PRIMARY KEY, name text NOT NULL)`,
    `CREATE TABLE shops (id serial PRIMARY KEY, chain_id integer NOT NULL REFERENCES chains(id), name text NOT NULL, created_at text NOT NULL)`,
    `CREATE TABLE enrol_codes (
       code_hash text PRIMARY KEY, shop_id integer NOT NULL REFERENCES shops(id), created_at text NOT NULL,
       used_at text, till_id integer)`,
    `CREATE TABLE tills (
       id serial PRIMARY KEY, shop_id integer NOT NULL REFERENCES shops(id), name text NOT NULL,
       cred_hash text NOT NULL, created_at text NOT NULL, last_seen text, last_seq bigint NOT NULL DEFAULT 0,
       status jsonb)`,
    `CREATE TABLE till_events (
       till_id integer NOT NULL REFERENCES tills(id), seq bigint NOT NULL, kind text NOT NULL, ref text NOT NULL,
       digest text NOT NULL, payload jsonb NOT NULL, received_at text NOT NULL, PRIMARY KEY (till_id, seq))`,
    `CREATE TABLE orders (
       till_id integer NOT NULL REFERENCES tills(id), order_number text NOT NULL, shop_id integer NOT NULL,
       seq bigint NOT NULL, kind text NOT NULL, invoice_type text NOT NULL, transaction_type text NOT NULL,
       state text NOT NULL, created_at text NOT NULL, total_para bigint NOT NULL, cashier text,
       invoice_number text, sdc_date_time text, data jsonb NOT NULL, receipt jsonb,
       PRIMARY KEY (till_id, order_number))`,
    `CREATE INDEX orders_shop_number ON orders (shop_id, order_number)`,
    `CREATE INDEX orders_shop_invoice ON orders (shop_id, invoice_number)`,
    `CREATE INDEX orders_shop_created ON orders (shop_id, created_at)`,
    `CREATE SEQUENCE change_seq`,
    `CREATE TABLE products (
       shop_id integer NOT NULL REFERENCES shops(id), code text NOT NULL, name text NOT NULL,
       price_para bigint NOT NULL CHECK (price_para >= 0), label text NOT NULL, unit text NOT NULL,
       grp text, favourite boolean NOT NULL DEFAULT false, barcodes jsonb NOT NULL DEFAULT '[]',
       deleted boolean NOT NULL DEFAULT false, version bigint NOT NULL, PRIMARY KEY (shop_id, code))`,
    `CREATE INDEX products_version ON products (shop_id, version)`,
    `CREATE TABLE staff (
       shop_id integer NOT NULL REFERENCES shops(id), name text NOT NULL, role text NOT NULL,
       pin_hash text NOT NULL, active boolean NOT NULL DEFAULT true, version bigint NOT NULL,
       PRIMARY KEY (shop_id, name))`,
    `CREATE INDEX staff_version ON staff (shop_id, version)`,
  ],
};

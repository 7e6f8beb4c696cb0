/**
 * The input of `catalog.put` for the plain product the tests make: a piece under label `A`, not a favourite, no
 * barcodes, approved by the manager's PIN. A test names what it cares about (code, name, price, and where it
 * matters the label, unit or group); `create: false` edits a product already there.
 */
import { MANAGER_PIN } from './session.ts';

export interface TestProduct {
  code: string;
  name: string;
  price: number;
  label?: string;
  unit?: 'piece' | 'kg' | 'l';
  group?: string | null;
  create?: boolean;
}

export function productInput(p: TestProduct, managerPin: string = MANAGER_PIN) {
  return {
    code: p.code,
    ...(p.create === false ? {} : { create: true }),
    name: p.name,
    price: p.price,
    label: p.label ?? 'A',
    unit: p.unit ?? 'piece',
    group: p.group ?? null,
    favourite: false,
    barcodes: [],
    approval: { managerPin },
  };
}

/** A barcode rule's kind is typed in the UI's words (the field shows them so), and sent as the contract's. */
import { describe, expect, it } from 'vitest';
import { ruleKind } from './HubApp.tsx';

describe('barcode rule kinds in words', () => {
  it('reads the kind in any of the three languages, with or without diacritics', () => {
    expect(['тежина', 'Težina', 'tezina', 'weight'].map(ruleKind)).toEqual(['weight', 'weight', 'weight', 'weight']);
    expect(['цена', 'cena', 'PRICE'].map(ruleKind)).toEqual(['price', 'price', 'price']);
    // Anything else goes to the hub as typed, and the hub refuses it at the field.
    expect(ruleKind('x')).toBe('x');
  });
});

/**
 * The IPS QR code as an image: drawn by the QR library the screens use, with the screens' options, then read back
 * by a decoder that knows nothing of how it was made, and parsed to the very fields it was built from. Cyrillic and
 * Latin letters with diacritics survive (UTF-8, `C:1`).
 */
import { describe, expect, it } from 'vitest';
import QRCode from 'qrcode';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import {
  IPS_QR_RENDER,
  buildIpsQr,
  model97Control,
  parseIpsQr,
  type IpsQrFields,
} from '../../shared/payments/ips-qr.ts';
import { NBS_EXAMPLE_FIELDS } from '../support/ips-nbs-example.ts';

async function decode(text: string, scale: number): Promise<string | null> {
  const png = PNG.sync.read(await QRCode.toBuffer(text, { ...IPS_QR_RENDER, scale, type: 'png' }));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
}

describe('the IPS QR image', () => {
  const cases: IpsQrFields[] = [
    {
      kind: 'PT',
      account: '840000000095584510',
      name: 'Продавница Код Мике',
      amountPara: 123456,
      paymentCode: '221',
      reference: `97${model97Control('26112816300512')}26112816300512`,
    },
    {
      kind: 'PT',
      account: '310123456789121186',
      name: 'Radnja Šećer i Đak, Čačak',
      amountPara: 1,
      paymentCode: '221',
    },
    NBS_EXAMPLE_FIELDS,
  ];

  for (const fields of cases)
    it(`decodes back to the same fields: ${fields.name.split('\r')[0]}`, async () => {
      const text = buildIpsQr(fields);
      for (const scale of [3, 6]) {
        const read = await decode(text, scale);
        expect(read).toBe(text);
        expect(parseIpsQr(read ?? '')).toEqual({ ok: true, fields });
      }
    });
});

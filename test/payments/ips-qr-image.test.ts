/**
 * The IPS QR code as an image: drawn by the QR library the screens use, with the screens' options, then read back
 * by a decoder that knows nothing of how it was made, and parsed to the very fields it was built from. Cyrillic and
 * Latin letters with diacritics survive (UTF-8, `C:1`).
 */
import { describe, expect, it } from 'vitest';
import QRCode from 'qrcode';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { IPS_QR_RENDER, buildIpsQr, parseIpsQr, type IpsQrFields } from '../../shared/payments/ips-qr.ts';
import { NBS_EXAMPLE_FIELDS, SHOP_EXAMPLE_FIELDS } from '../support/ips-examples.ts';

async function decode(text: string, scale: number): Promise<string | null> {
  const png = PNG.sync.read(await QRCode.toBuffer(text, { ...IPS_QR_RENDER, scale, type: 'png' }));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
}

describe('the IPS QR image', () => {
  const cases: IpsQrFields[] = [
    SHOP_EXAMPLE_FIELDS,
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

/**
 * The NBS's own example of an IPS code on a printed bill (nbs.rs/QRcode, the generator's example), CR LF as
 * published, and the fields it stands for: the parser's test reads one into the other, the image test draws it.
 */
import type { IpsQrFields } from '../../shared/payments/ips-qr.ts';

export const NBS_EXAMPLE =
  'K:PR|V:01|C:1|R:845000000040484987|N:JP EPS BEOGRAD\r\nBALKANSKA 13|I:RSD3596,13|' +
  'P:MRĐO MAČKATOVIĆ\r\nŽUPSKA 13\r\nBEOGRAD 6|SF:189|S:UPLATA PO RAČUNU ZA EL. ENERGIJU|RO:97163220000111111111000';

export const NBS_EXAMPLE_FIELDS: IpsQrFields = {
  kind: 'PR',
  account: '845000000040484987',
  name: 'JP EPS BEOGRAD\r\nBALKANSKA 13',
  amountPara: 359613,
  payer: 'MRĐO MAČKATOVIĆ\r\nŽUPSKA 13\r\nBEOGRAD 6',
  paymentCode: '189',
  purpose: 'UPLATA PO RAČUNU ZA EL. ENERGIJU',
  reference: '97163220000111111111000',
};

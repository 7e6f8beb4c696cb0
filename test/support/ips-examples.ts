/**
 * IPS codes the parser's test and the image test share: the NBS's own example of a code on a printed bill
 * (nbs.rs/QRcode, the generator's example), CR LF as published, with the fields it stands for; and a shop's
 * point-of-sale code (`PT`) for 1.234,56 dinars.
 */
import { model97Control, type IpsQrFields } from '../../shared/payments/ips-qr.ts';

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

export const SHOP_EXAMPLE_FIELDS: IpsQrFields = {
  kind: 'PT',
  account: '840000000095584510',
  name: 'Продавница Код Мике',
  amountPara: 123456,
  paymentCode: '221',
  reference: `97${model97Control('26112816300512')}26112816300512`,
};

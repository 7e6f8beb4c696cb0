/** The shop that sends e-invoices in the SEF suites: a valid PIB and registration number, its address and account. */
export const SELLER = {
  pib: '100002508',
  registrationNumber: '08000017',
  name: 'Продавница д.о.о.',
  street: 'Главна 1',
  city: 'Нови Сад',
  postalZone: '21000',
  bankAccount: '160-0000000001234-56',
};

/**
 * A print job's failure as people read it, in the UI's language. The core keeps the system's own text for the log
 * (`job 7: printer 192.168.1.50:9100: ECONNREFUSED`, `cups POS80: lp exited 1: …`); a screen shows these words
 * instead, never the English of the socket or the spooler on a Serbian screen.
 */
import type { Language } from '../domain.ts';

export type PrinterProblem =
  | 'refused'
  | 'unreachable'
  | 'not_found'
  | 'cut_off'
  | 'paper_out'
  | 'cover_open'
  | 'stopped'
  | 'spooler'
  | 'device'
  | 'interrupted'
  | 'silent_after'
  | 'unknown';

/** Which problem the core's text describes (the transports' and the queue's own wording, electron/printer). */
export function printerProblem(raw: string): PrinterProblem {
  if (/interrupted: Kasa stopped/i.test(raw)) return 'interrupted';
  if (/stopped answering after the job/i.test(raw)) return 'silent_after';
  if (/paper out/i.test(raw)) return 'paper_out';
  if (/cover open/i.test(raw)) return 'cover_open';
  if (/printer stopped/i.test(raw)) return 'stopped';
  if (/ECONNREFUSED/.test(raw)) return 'refused';
  if (/ENOTFOUND|EAI_AGAIN/.test(raw)) return 'not_found';
  if (/connect timeout|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EHOSTDOWN|ENETDOWN/.test(raw)) return 'unreachable';
  if (/write timeout|closed before|ECONNRESET|EPIPE/.test(raw)) return 'cut_off';
  if (/^(job \d+: )?(cups|winspool) /.test(raw)) return 'spooler';
  if (/ENOENT|EACCES|EBUSY|ENXIO|EPERM/.test(raw)) return 'device';
  return 'unknown';
}

const WORDS: Record<Language, Record<PrinterProblem, string>> = {
  'sr-Cyrl': {
    refused: 'штампач је одбио везу: проверите да ли је укључен и да ли је адреса тачна',
    unreachable: 'штампач се не јавља на мрежи: проверите да ли је укључен и повезан',
    not_found: 'адреса штампача није пронађена на мрежи',
    cut_off: 'веза са штампачем је прекинута током штампе',
    paper_out: 'нема папира у штампачу',
    cover_open: 'поклопац штампача је отворен',
    stopped: 'штампач је заустављен (грешка штампача)',
    spooler: 'штампач у оперативном систему није примио посао',
    device: 'уређај штампача није доступан (искључен или га користи други програм)',
    interrupted: 'каса је заустављена током штампе',
    silent_after: 'штампач је престао да се јавља после посла',
    unknown: 'штампач није одговорио или је одбио податке',
  },
  'sr-Latn': {
    refused: 'štampač je odbio vezu: proverite da li je uključen i da li je adresa tačna',
    unreachable: 'štampač se ne javlja na mreži: proverite da li je uključen i povezan',
    not_found: 'adresa štampača nije pronađena na mreži',
    cut_off: 'veza sa štampačem je prekinuta tokom štampe',
    paper_out: 'nema papira u štampaču',
    cover_open: 'poklopac štampača je otvoren',
    stopped: 'štampač je zaustavljen (greška štampača)',
    spooler: 'štampač u operativnom sistemu nije primio posao',
    device: 'uređaj štampača nije dostupan (isključen ili ga koristi drugi program)',
    interrupted: 'kasa je zaustavljena tokom štampe',
    silent_after: 'štampač je prestao da se javlja posle posla',
    unknown: 'štampač nije odgovorio ili je odbio podatke',
  },
  en: {
    refused: 'the printer refused the connection: check that it is on and the address is right',
    unreachable: 'the printer does not answer on the network: check that it is on and connected',
    not_found: "the printer's address was not found on the network",
    cut_off: 'the connection to the printer broke during printing',
    paper_out: 'the printer is out of paper',
    cover_open: "the printer's cover is open",
    stopped: 'the printer stopped (printer error)',
    spooler: "the operating system's printer did not take the job",
    device: 'the printer device is not available (off, or used by another program)',
    interrupted: 'the till was stopped while printing',
    silent_after: 'the printer stopped answering after the job',
    unknown: 'the printer did not answer or refused the data',
  },
};

/** The core's text of a failed print in `lang`'s words ('' for none). */
export function printerErrorText(lang: Language, raw: string | null | undefined): string {
  return raw ? WORDS[lang][printerProblem(raw)] : '';
}

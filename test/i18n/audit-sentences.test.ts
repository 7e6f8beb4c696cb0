/**
 * The audit log in words (shared/i18n/audit.ts): every action name the till's core and the hub write has a
 * sentence of its own in all three languages, read from the source itself so a new `audit(` call without a
 * sentence fails here; and a real till (SQLite file, sandbox gateway over HTTP) shows its log as sentences.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commands } from '../../shared/contract/index.ts';
import { AUDITED } from '../../shared/contract/authz.ts';
import type { AuditEntry } from '../../shared/contract/audit.ts';
import { LANGUAGES } from '../../shared/domain.ts';
import {
  AUDIT_TEXT,
  hasCommandWords,
  hasHubSentence,
  hasTillSentence,
  hubAuditSentence,
  tillAuditSentence,
} from '../../shared/i18n/audit.ts';
import { closeCores, MANAGER_PIN, ok, startCore } from '../support/session.ts';
import { findLeaks } from '../support/language-leak.ts';

const root = path.resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return sources(rel);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

/** The action names an `audit(` call in these files writes: literals, and the prefixes of template ones. */
function writtenActions(files: readonly string[], dotted: boolean): { names: Set<string>; prefixes: Set<string> } {
  const names = new Set<string>();
  const prefixes = new Set<string>();
  for (const file of files) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    for (const m of text.matchAll(/\baudit\s*\(/g)) {
      // The arguments before the detail object (or the call's end): actor and action, a ternary of two.
      const head = text.slice(m.index + m[0].length, m.index + 400).split(/(?<!\$)\{|;/)[0] ?? '';
      // The till's actions are dotted (`staff.login`; a ternary's `'in'` is a value); the hub's are words.
      const literal = dotted ? /'([a-z_]+(?:\.[A-Za-z_]+)+)'/g : /'([a-z_]+)'/g;
      for (const lit of head.matchAll(literal)) if (lit[1]) names.add(lit[1]);
      for (const tpl of head.matchAll(/`([a-z_.]+)\$\{/g)) if (tpl[1]) prefixes.add(tpl[1]);
    }
  }
  return { names, prefixes };
}

/** The commands whose input an escalation may send for a manager's approval (shared/contract/authz.ts). */
function escalated(): string[] {
  const text = fs.readFileSync(path.join(root, 'shared/contract/authz.ts'), 'utf8');
  return [...text.matchAll(/name === '([a-zA-Z.]+)'/g)].map((m) => m[1] ?? '');
}

const LEAK = [/\{\w+\}/, /[{}"]/, /\b[a-z]+\.[a-z][A-Za-z_]+\b/, /\d{4}-\d{2}-\d{2}T/, /undefined|null|NaN/];

describe('every audit action has a sentence', () => {
  it('each action name the till core writes (electron/) reads as its own sentence in every language', () => {
    const { names, prefixes } = writtenActions(sources('electron'), true);
    // A scan that found nothing would pass anything: the core writes dozens of actions.
    expect(names.size).toBeGreaterThan(30);
    expect(names).toContain('staff.login');
    expect(prefixes).toEqual(new Set(['approve.', 'approved.']));
    const missing = [...names].filter((n) => !hasTillSentence(n));
    expect(missing).toEqual([]);
    for (const command of AUDITED) expect(hasTillSentence(command)).toBe(true);
    for (const lang of LANGUAGES)
      for (const action of names) {
        const said = tillAuditSentence(lang, { action, actor: 'Ана', detail: '{}' });
        expect(said, `${lang} ${action}`).not.toBe(tillAuditSentence(lang, { action: 'x.y', actor: null, detail: '' }));
        for (const leak of LEAK) expect(said, `${lang} ${action}`).not.toMatch(leak);
      }
  });

  it('every command a manager guards or approves is named in words (approved.…, refusals, wrong PINs)', () => {
    const guarded = Object.entries(commands)
      .filter(([, c]) => c.auth === 'approval' || c.auth === 'manager')
      .map(([name]) => name);
    expect(guarded.length).toBeGreaterThan(15);
    const missing = [...guarded, ...escalated(), ...AUDITED].filter((c) => !hasCommandWords(c));
    expect(missing).toEqual([]);
  });

  it("the counter's approvals (staff.approve's actions in the store) each have their sentence", () => {
    const store = fs.readFileSync(path.join(root, 'renderer/src/store/manager.ts'), 'utf8');
    const block = /const action = \{([^}]*)\}/.exec(store)?.[1] ?? '';
    const actions = [...block.matchAll(/'([a-z_]+)'/g)].map((m) => m[1] ?? '');
    expect(actions.length).toBeGreaterThanOrEqual(4);
    const generic = tillAuditSentence('sr-Cyrl', { action: 'approve.other', actor: null, detail: { detail: 'Ана' } });
    for (const a of actions)
      expect(
        tillAuditSentence('sr-Cyrl', { action: `approve.${a}`, actor: 'Менаџер', detail: '{"detail":"Ана"}' }),
      ).not.toBe(generic);
  });

  it('each action name the hub writes has its sentence', () => {
    const { names } = writtenActions(sources('hub'), false);
    const union = fs.readFileSync(path.join(root, 'shared/contract/hub.ts'), 'utf8');
    const declared = /HubAuditAction =([^;]*);/.exec(union)?.[1] ?? '';
    const all = new Set([...names, ...[...declared.matchAll(/'([a-z_]+)'/g)].map((m) => m[1] ?? '')]);
    expect(all.size).toBeGreaterThanOrEqual(10);
    expect([...all].filter((a) => !hasHubSentence(a))).toEqual([]);
    for (const lang of LANGUAGES)
      for (const action of all) {
        const said = hubAuditSentence(lang, { action, actor: 'admin', detail: { count: 2, names: 'Ана, Марко' } });
        for (const leak of LEAK) expect(said, `${lang} ${action}`).not.toMatch(leak);
      }
  });

  it('the three languages have the same texts, none empty', () => {
    const keys = Object.keys(AUDIT_TEXT['sr-Cyrl']).sort();
    for (const lang of LANGUAGES) {
      expect(Object.keys(AUDIT_TEXT[lang]).sort()).toEqual(keys);
      for (const k of keys) expect(AUDIT_TEXT[lang][k as keyof (typeof AUDIT_TEXT)['en']].trim()).not.toBe('');
    }
  });

  it('the leak checker the e2e spec runs on the audit tab flags what the tab showed before', () => {
    expect(findLeaks('staff.login {"id":1}', 'sr-Cyrl', []).map((l) => l.match)).toContain('staff.login');
    const said = tillAuditSentence('sr-Cyrl', { action: 'staff.login', actor: 'Менаџер', detail: '{"id":1}' });
    expect(findLeaks(said, 'sr-Cyrl', [])).toEqual([]);
  });

  it('an action with no sentence, or a detail that is not JSON, still reads as words', () => {
    for (const lang of LANGUAGES) {
      const said = tillAuditSentence(lang, { action: 'staff.somethingNew', actor: 'Ана', detail: '{"id":1}' });
      expect(said).toBe(AUDIT_TEXT[lang].other);
      expect(tillAuditSentence(lang, { action: 'staff.login', actor: 'Ана', detail: 'not json' })).toContain('Ана');
    }
  });
});

describe('a till shows its audit log in words', () => {
  afterEach(closeCores);

  it('login, a price change and a new printer read as sentences with actor and approver', async () => {
    const c = await startCore({
      prefix: 'kasa-audit-',
      env: { KASA_LANG: 'sr-Cyrl', KASA_PRINTER_ALLOW_LOOPBACK: '1' },
    });
    const approval = { managerPin: MANAGER_PIN };
    const bread = { code: 'H1', name: 'Хлеб', label: 'A', unit: 'piece', favourite: false, barcodes: [] };
    await ok(c, 'catalog.put', { ...bread, price: 89, approval });
    await ok(c, 'catalog.put', { ...bread, price: 95, approval });
    await ok(c, 'printer.configure', { uri: 'tcp://127.0.0.1:9', profileId: 'generic-80', approval });
    const { entries } = await ok<{ entries: AuditEntry[] }>(c, 'audit.list', { managerPin: MANAGER_PIN });
    const said = entries.map((e) => tillAuditSentence('sr-Cyrl', e));
    expect(said).toContain('Пријава: Менаџер');
    expect(said).toContain('Промена сопственог PIN-а: Менаџер');
    expect(said).toContain('Промењена цена: Хлеб 89,00 → 95,00 дин');
    expect(said).toContain('Додат артикал: Хлеб, 89,00 дин');
    expect(said).toContain('Промењен штампач: tcp://127.0.0.1:9');
    const printer = entries.find((e) => e.action === 'approved.printer.configure');
    expect(printer?.approver).toBe('Менаџер');
    expect(tillAuditSentence('sr-Latn', entries[0] as AuditEntry)).toBe('Promenjen štampač: tcp://127.0.0.1:9');
    expect(tillAuditSentence('en', entries.find((e) => e.action === 'catalog.productChanged') as AuditEntry)).toBe(
      'Price changed: Хлеб 89,00 → 95,00 RSD',
    );
    for (const s of said) expect(s).not.toMatch(/[{}"]|\b[a-z]+\.[a-z][A-Za-z]+\b/);
  });
});

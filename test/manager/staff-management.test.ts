/**
 * Staff management at the till (issue 26), through the whole core on a real SQLite file and the sandbox
 * gateway over HTTP: a manager edits, deactivates, reactivates and resets a PIN, with approval and audit;
 * the last manager and oneself are never deactivated or demoted; a deactivated person's login is refused in
 * words and their open session ends; a refusal names its field and changes nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core.ts';
import { staffChangeRefusal, type StaffView } from '../../shared/contract/staff.ts';
import { closeCores, fails, MANAGER_PIN, ok, startCore, tempDir } from '../support/session.ts';

afterEach(closeCores);

const start = (lang = 'sr-Cyrl'): Promise<Core> =>
  startCore({ dataDir: tempDir('kasa-staff-'), env: { KASA_LANG: lang } });

interface Row {
  name: string;
  role: string;
  active: number;
  pin_hash: string;
  email: string | null;
}
const row = (c: Core, id: number): Row | undefined =>
  c.db.prepare<[number], Row>('SELECT name, role, active, pin_hash, email FROM staff WHERE id = ?').get(id);

const auditRows = (c: Core) =>
  c.db
    .prepare<[], { action: string; actor: string | null; approver: string | null; detail: string }>(
      'SELECT action, actor, approver, detail FROM audit_log ORDER BY id',
    )
    .all();

async function person(c: Core, name: string, role: 'cashier' | 'manager', pin: string): Promise<StaffView> {
  return ok<StaffView>(c, 'staff.create', { managerPin: MANAGER_PIN, name, role, pin });
}

/** A new person refused by the name alone (at the name's field, whatever the role and PIN): the refusal's message. */
async function refusedName(
  c: Core,
  name: string,
  role: 'cashier' | 'manager' = 'cashier',
  pin = '9753',
): Promise<string> {
  const refused = await fails(c, 'staff.create', { managerPin: MANAGER_PIN, name, role, pin });
  expect(refused).toMatchObject({ code: 'invalid_input', field: 'name' });
  return refused.message;
}

const me = (c: Core): number =>
  c.db.prepare<[], { id: number }>("SELECT id FROM staff WHERE role = 'manager' ORDER BY id LIMIT 1").get()?.id ?? 0;

describe('staff management', () => {
  it('refuses to deactivate or demote the last active manager, and oneself, naming the field; nothing changes', async () => {
    const c = await start();
    const id = me(c);
    const before = row(c, id);
    const self = await fails(c, 'staff.update', { managerPin: MANAGER_PIN, id, active: false });
    expect(self).toMatchObject({ code: 'invalid_input', field: 'active' });
    // The first-run manager is the last one: told so, and what to do (issue 38), not „another manager does that“.
    expect(self.message).toBe(
      'Последњи активни менаџер не може бити искључен нити остати без улоге менаџера (Активна особа): прво додајте или укључите другог менаџера.',
    );
    const demote = await fails(c, 'staff.update', { managerPin: MANAGER_PIN, id, role: 'cashier' });
    expect(demote).toMatchObject({ code: 'invalid_input', field: 'role' });
    expect(row(c, id)).toEqual(before);

    // A second manager deactivates the first (not themself), then cannot demote themself, now the last one.
    const other = await person(c, 'Мира Менаџер', 'manager', '735164');
    await c.dispatch('staff.logout', {});
    const off = await ok<StaffView>(c, 'staff.update', { managerPin: '735164', id, active: false });
    expect(off.active).toBe(false);
    const lastNow = await fails(c, 'staff.update', { managerPin: '735164', id: other.id, role: 'cashier' });
    expect(lastNow).toMatchObject({ code: 'invalid_input', field: 'role' });
    expect(row(c, other.id)).toMatchObject({ role: 'manager', active: 1 });
  });

  it('the rule beside the contract: the last active manager stays, whoever asks (the hub’s admin is nobody)', () => {
    const manager = { id: 7, role: 'manager' as const, active: true };
    expect(staffChangeRefusal(manager, { active: false }, [], 0)).toEqual({ key: 'last_manager', field: 'active' });
    expect(staffChangeRefusal(manager, { role: 'cashier' }, [], 0)).toEqual({ key: 'last_manager', field: 'role' });
    expect(staffChangeRefusal(manager, { active: false }, [7], 1)).toEqual({ key: 'staff_self', field: 'active' });
    // The last one deactivating or demoting herself hears that she is the last (issue 38), not „another manager“.
    expect(staffChangeRefusal(manager, { active: false }, [7], 0)).toEqual({ key: 'last_manager', field: 'active' });
    expect(staffChangeRefusal(manager, { role: 'cashier' }, [7], 0)).toEqual({ key: 'last_manager', field: 'role' });
    expect(staffChangeRefusal(manager, { active: false }, [3], 1)).toBeNull();
    expect(staffChangeRefusal(manager, { active: true, role: 'manager' }, [7], 0)).toBeNull();
    const cashier = { id: 8, role: 'cashier' as const, active: true };
    expect(staffChangeRefusal(cashier, { active: false }, [7], 0)).toBeNull();
  });

  it('a deactivated cashier’s next login is refused in words, their open session ends; reactivated, they log in', async () => {
    const c = await start();
    const ana = await person(c, 'Ана Анић', 'cashier', '1357');
    // Ana logs in at this till; a manager deactivates her with an approval.
    await ok(c, 'staff.login', { pin: '1357' });
    const off = await ok<StaffView>(c, 'staff.update', { managerPin: MANAGER_PIN, id: ana.id, active: false });
    expect(off.active).toBe(false);
    // Her session is gone: a command that needs one is refused.
    const after = await fails(c, 'staff.list', {});
    expect(after).toMatchObject({ code: 'forbidden' });
    const refused = await fails(c, 'staff.login', { pin: '1357' });
    expect(refused).toMatchObject({ code: 'forbidden', field: 'pin' });
    expect(refused.message).toBe('Ова особа је искључена и не може да се пријави. Обратите се менаџеру.');

    await ok(c, 'staff.update', { managerPin: MANAGER_PIN, id: ana.id, active: true });
    expect(await ok<StaffView>(c, 'staff.login', { pin: '1357' })).toMatchObject({ name: 'Ана Анић', active: true });

    const log = auditRows(c);
    const deactivated = log.find((e) => e.action === 'staff.deactivate');
    expect(deactivated).toMatchObject({ actor: 'Ана Анић', approver: 'Менаџер' });
    expect(JSON.parse(deactivated?.detail ?? '{}')).toEqual({ id: ana.id, name: 'Ана Анић' });
    expect(log.map((e) => e.action)).toEqual(
      expect.arrayContaining(['staff.deactivate', 'staff.reactivate', 'staff.inactiveRefused']),
    );
  });

  it('a session whose person was deactivated elsewhere (the hub) ends at its next command', async () => {
    const c = await start();
    const ana = await person(c, 'Ана Анић', 'cashier', '1357');
    await ok(c, 'staff.login', { pin: '1357' });
    c.db.prepare('UPDATE staff SET active = 0 WHERE id = ?').run(ana.id);
    expect(await fails(c, 'staff.list', {})).toMatchObject({ code: 'forbidden' });
    expect(auditRows(c).map((e) => e.action)).toContain('staff.sessionEnded');
  });

  it('resets a PIN: the new one logs in, the old one does not, and the PIN is never in the audit', async () => {
    const c = await start('en');
    const ana = await person(c, 'Ana', 'cashier', '1357');
    const hashBefore = row(c, ana.id)?.pin_hash;
    await ok(c, 'staff.update', { managerPin: MANAGER_PIN, id: ana.id, pin: '8642' });
    expect(row(c, ana.id)?.pin_hash).not.toBe(hashBefore);
    expect((await c.dispatch('staff.login', { pin: '1357' })).ok).toBe(false);
    expect(await ok<StaffView>(c, 'staff.login', { pin: '8642' })).toMatchObject({ name: 'Ana' });
    const reset = auditRows(c).find((e) => e.action === 'staff.resetPin');
    expect(reset).toMatchObject({ approver: 'Manager' });
    expect(JSON.stringify(auditRows(c))).not.toContain('8642');
  });

  it('bad input is refused at its field in the user’s language and changes nothing', async () => {
    const c = await start();
    const ana = await person(c, 'Ана Анић', 'cashier', '1357');
    await person(c, 'Бора Борић', 'cashier', '2468');
    const before = row(c, ana.id);
    const letters = await fails(c, 'staff.update', { managerPin: MANAGER_PIN, id: ana.id, pin: '12ab' });
    expect(letters).toMatchObject({ code: 'invalid_input', field: 'pin' });
    expect(letters.message).toContain('цифара');
    const empty = await fails(c, 'staff.update', { managerPin: MANAGER_PIN, id: ana.id, name: '  ' });
    expect(empty).toMatchObject({ code: 'invalid_input', field: 'name' });
    const dup = await fails(c, 'staff.update', { managerPin: MANAGER_PIN, id: ana.id, name: 'Бора Борић' });
    expect(dup).toMatchObject({ code: 'invalid_input', field: 'name' });
    expect(dup.message).toBe('Име „Бора Борић“ у пољу „Назив“ већ има друга особа.');
    const taken = await fails(c, 'staff.update', { managerPin: MANAGER_PIN, id: ana.id, pin: '2468' });
    expect(taken).toMatchObject({ code: 'invalid_input', field: 'pin' });
    await refusedName(c, 'Бора Борић');
    expect(row(c, ana.id)).toEqual(before);
  });

  it('a name with an invisible character, a word mixing scripts or a look-alike of another’s is refused at its field (issue 39)', async () => {
    const c = await start();
    const marko = await person(c, 'МАРКО', 'cashier', '1357');
    const before = row(c, marko.id);
    const count = (): number => c.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM staff').get()?.n ?? 0;
    const people = count();
    expect(await refusedName(c, 'Mенаџер', 'manager', '864213')).toBe(
      'Реч имена у пољу „Назив“ меша ћирилична и латинична слова. Откуцајте је једним писмом.',
    );
    expect(await refusedName(c, 'Ана\u200B')).toContain('невидљив знак');
    expect(await refusedName(c, 'MAPKO')).toContain('„МАРКО“');
    const renamed = await fails(c, 'staff.update', { managerPin: MANAGER_PIN, id: marko.id, name: 'MAPKO\u202E' });
    expect(renamed).toMatchObject({ code: 'invalid_input', field: 'name' });
    expect(row(c, marko.id)).toEqual(before);
    expect(count()).toBe(people);
    // A decomposed „ć“ is kept composed (NFC).
    const nfc = await person(c, 'Ненад Ћосић'.normalize('NFD'), 'cashier', '9753');
    expect(nfc.name).toBe('Ненад Ћосић'.normalize('NFC'));
  });

  it('edits name, role, e-mail and phone with approval, audited with the fields changed', async () => {
    const c = await start();
    const ana = await person(c, 'Ана Анић', 'cashier', '1357');
    const edited = await ok<StaffView>(c, 'staff.update', {
      managerPin: MANAGER_PIN,
      id: ana.id,
      name: 'Ана Петровић',
      role: 'manager',
      email: 'ana@example.com',
      phone: '+381 11 123 4567',
    });
    expect(edited).toMatchObject({ name: 'Ана Петровић', role: 'manager', email: 'ana@example.com' });
    const update = auditRows(c).find((e) => e.action === 'staff.update');
    expect(JSON.parse(update?.detail ?? '{}')).toMatchObject({ fields: ['name', 'role', 'email', 'phone'] });
    // Without a manager's PIN nothing changes.
    const noPin = await c.dispatch('staff.update', { id: ana.id, name: 'X' });
    expect(noPin.ok).toBe(false);
    expect(row(c, ana.id)?.name).toBe('Ана Петровић');
  });
});

/**
 * The first-run setup flow's core side: a new till owes its setup (AppInfo.setupPending) until a manager
 * records it done; the shop and till names are settings; the first-run manager is renamed with staff.update.
 * Real SQLite files and the embedded sandbox gateway, restarts on the same data dir.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SettingsView } from '../../shared/contract/settings.ts';
import type { ShiftView } from '../../shared/contract/shifts.ts';
import type { StaffView } from '../../shared/contract/staff.ts';
import type { AppInfo } from '../../shared/domain.ts';
import { closeCore, closeCores, fails, MANAGER_PIN, ok, signIn, startCore, tempDir } from '../support/session.ts';

afterEach(closeCores);

describe('the setup flow is owed once', () => {
  it('a new till owes it across the PIN change and a restart; done, it is never owed again', async () => {
    const dir = tempDir('kasa-setup-');
    let c = await startCore({ dataDir: dir, signedIn: false });
    expect(await ok<AppInfo>(c, 'app.info')).toMatchObject({ firstRun: true, setupPending: true, shopName: '' });
    await signIn(c);
    expect(await ok<AppInfo>(c, 'app.info')).toMatchObject({ firstRun: false, setupPending: true });
    await closeCore(c);
    // A restart in the middle of the flow: still owed.
    c = await startCore({ dataDir: dir, signedIn: false });
    expect((await ok<AppInfo>(c, 'app.info')).setupPending).toBe(true);
    const view = await ok<SettingsView>(c, 'settings.update', {
      managerPin: MANAGER_PIN,
      shopName: '  Продавница Код Мике ',
      tillName: 'Каса 1',
      setupDone: true,
    });
    expect(view).toMatchObject({ shopName: 'Продавница Код Мике', tillName: 'Каса 1', setupDone: true });
    await closeCore(c);
    c = await startCore({ dataDir: dir, signedIn: false });
    expect(await ok<AppInfo>(c, 'app.info')).toMatchObject({
      setupPending: false,
      shopName: 'Продавница Код Мике',
      tillName: 'Каса 1',
    });
    expect(await ok<SettingsView>(c, 'settings.get')).toMatchObject({
      shopName: 'Продавница Код Мике',
      setupDone: true,
    });
  });

  it('a till set up before the flow existed never owes it', async () => {
    const dir = tempDir('kasa-setup-');
    let c = await startCore({ dataDir: dir });
    // The mark did not exist on such a till: its first-run PIN was changed long ago.
    c.db.prepare("DELETE FROM settings WHERE key = 'setupPending'").run();
    await closeCore(c);
    c = await startCore({ dataDir: dir, signedIn: false });
    expect(await ok<AppInfo>(c, 'app.info')).toMatchObject({ firstRun: false, setupPending: false });
  });
});

describe('names and bad input', () => {
  it('refuses a name with a control character or over 60 characters at its field, storing nothing', async () => {
    const c = await startCore();
    const bad = await fails(c, 'settings.update', { managerPin: MANAGER_PIN, shopName: 'Мика\u001b@' });
    expect(bad).toMatchObject({ code: 'invalid_input', field: 'shopName' });
    const long = await fails(c, 'settings.update', { managerPin: MANAGER_PIN, tillName: 'К'.repeat(61) });
    expect(long).toMatchObject({ code: 'invalid_input', field: 'tillName' });
    // The flow cannot be made owed again: only `true` is accepted.
    const undo = await fails(c, 'settings.update', { managerPin: MANAGER_PIN, setupDone: false });
    expect(undo).toMatchObject({ code: 'invalid_input', field: 'setupDone' });
    expect(await ok<SettingsView>(c, 'settings.get')).toMatchObject({ shopName: '', tillName: '', setupDone: false });
    // Without a manager's PIN nothing is stored either.
    const cashier = await fails(c, 'settings.update', { managerPin: '1111', shopName: 'Туђа' });
    expect(cashier.code).toBe('forbidden');
    expect((await ok<SettingsView>(c, 'settings.get')).shopName).toBe('');
  });

  it('the first-run manager „Менаџер“ is renamed with staff.update, and the rename is audited', async () => {
    const c = await startCore();
    const me = (await ok<{ staff: StaffView[] }>(c, 'staff.list', {})).staff.find((p) => p.role === 'manager');
    expect(me?.name).toBe('Менаџер');
    const renamed = await ok<StaffView>(c, 'staff.update', { managerPin: MANAGER_PIN, id: me?.id, name: 'Мика Микић' });
    expect(renamed).toMatchObject({ name: 'Мика Микић', role: 'manager', mustChangePin: false });
    const audit = c.db
      .prepare<[], { action: string }>("SELECT action FROM audit_log WHERE action LIKE 'staff.update%'")
      .all();
    expect(audit.length).toBeGreaterThan(0);
    // The manager renamed is the one logged in: the shift opened next is theirs under the new name.
    const shift = await ok<ShiftView>(c, 'shifts.open', { openingFloat: 100 });
    expect(shift.cashier).toBe('Мика Микић');
  });

  it('a new till names its first manager in the language it starts in, and writes that name in the audit', async () => {
    for (const [lang, name] of [
      ['sr-Latn', 'Menadžer'],
      ['en', 'Manager'],
    ] as const) {
      const c = await startCore({ env: { KASA_LANG: lang } });
      const me = (await ok<{ staff: StaffView[] }>(c, 'staff.list', {})).staff.find((p) => p.role === 'manager');
      expect(me?.name, lang).toBe(name);
      const seeded = c.db
        .prepare<[], { detail: string }>("SELECT detail FROM audit_log WHERE action = 'staff.defaultManager'")
        .get();
      expect(JSON.parse(seeded?.detail ?? '{}'), lang).toEqual({ name });
      await closeCore(c);
    }
  });
});

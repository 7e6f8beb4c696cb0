/**
 * CI version of `npm run fuzz`: every contract command through the real host over HTTP, a few cases
 * each (the full run is `npm run fuzz -- --runs 2000`). Also pins the field naming the fuzzer relies on.
 */
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { COMMAND_NAMES } from '../../shared/contract/index.ts';
import { fieldPath, zodToAppError } from '../../electron/errors.ts';
import { tempDatabases } from '../support/temp-db.ts';
import { digestsWhileUnchanged, fieldRelates, fuzzCases, runFuzz, splitField, summaryLine } from './fuzz.ts';

const temp = tempDatabases('kasa-fuzz-digest-');
afterAll(temp.cleanup);

describe('contract fuzzing through the host', () => {
  it('covers every command: no crash, no 500, 400s name a field of the input, rejections change nothing', async () => {
    const runs = COMMAND_NAMES.length * 5;
    const r = await runFuzz({ runs, seed: 7 });
    expect(r.commands).toBe(COMMAND_NAMES.length);
    expect(r.failures).toEqual([]);
    expect(summaryLine(r)).toBe(`cases=${runs} crashes=0 lost=0 duplicates=0`);
    // The run exercised both sides: some commands were accepted, many rejected and digest-checked.
    expect(r.accepted).toBeGreaterThan(0);
    expect(r.digestChecks).toBeGreaterThan(runs / 2);
    // Five cases per command through the real host: the run grows with the contract (28 s alone on a loaded
    // machine with 150 commands), so its limit is a hang guard, not the suite's 30 s.
  }, 180_000);

  it("reads the digests again after any write: its own, a trigger's, another connection's, a schema change", () => {
    const d = temp.db(temp.tmp());
    d.exec(`CREATE TABLE t_a (v TEXT); CREATE TABLE t_log (v TEXT);
      CREATE TRIGGER t_a_log AFTER UPDATE ON t_a BEGIN INSERT INTO t_log VALUES (NEW.v); END;`);
    d.prepare('INSERT INTO t_a VALUES (?)').run('x');
    const digests = digestsWhileUnchanged(d);
    const first = digests();
    expect(digests()).toBe(first); // nothing written: the same reading
    d.prepare('UPDATE t_a SET v = ?').run('y'); // a row and, by the trigger, another
    const second = digests();
    expect(second.get('t_a')).not.toBe(first.get('t_a'));
    expect(second.get('t_log')).not.toBe(first.get('t_log'));
    const other = new Database(d.name);
    other.prepare('DELETE FROM t_log').run();
    other.close();
    const third = digests();
    expect(third.get('t_log')).not.toBe(second.get('t_log'));
    d.exec('CREATE TABLE t_b (v TEXT)');
    expect(digests().has('t_b')).toBe(true);
  });

  it('generates cases for every command, round-robin, reproducibly', () => {
    const a = fuzzCases(COMMAND_NAMES.length * 2, 1);
    expect(new Set(a.map((c) => c.command))).toEqual(new Set(COMMAND_NAMES));
    expect(JSON.stringify(fuzzCases(COMMAND_NAMES.length * 2, 1))).toBe(JSON.stringify(a));
  });

  it('names an unknown empty or dotted key instead of "(input)" (found by the fuzzer)', () => {
    const schema = z.strictObject({ lines: z.array(z.strictObject({ name: z.string() })) });
    const bad = schema.safeParse(JSON.parse('{"lines":[{"name":"x","":1}]}'));
    expect(bad.success).toBe(false);
    const err = zodToAppError((bad as { error: z.ZodError }).error, 'en');
    expect(err).toMatchObject({ code: 'invalid_input', field: 'lines.0.""' });
    expect(fieldPath(['a.b', 0, '"q'])).toBe('"a.b".0."\\"q"');
    expect(splitField('"a.b".0."\\"q".c')).toEqual(['a.b', 0, '"q', 'c']);
    expect(fieldRelates({ lines: [{ '': 1 }] }, 'lines.0.""')).toBe(true);
    expect(fieldRelates({ lines: [] }, 'payments')).toBe(true); // missing key of an object that is there
    expect(fieldRelates({ lines: [] }, 'lines.0.name.x')).toBe(false);
    expect(fieldRelates({ a: 1 }, '(input)')).toBe(false);
    expect(fieldRelates([1], '(input)')).toBe(true);
  });
});

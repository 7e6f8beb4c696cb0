/**
 * CI version of `npm run fuzz`: every contract command through the real host over HTTP, a few cases
 * each (the full run is `npm run fuzz -- --runs 2000`). Also pins the field naming the fuzzer relies on.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { COMMAND_NAMES } from '../../shared/contract/index.ts';
import { fieldPath, zodToAppError } from '../../electron/errors.ts';
import { fieldRelates, fuzzCases, runFuzz, splitField, summaryLine } from './fuzz.ts';

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
    // Five cases a command: the run grows with the contract (issue 40 added twelve commands), past the default 30 s
    // on a loaded two-core machine.
  }, 90_000);

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

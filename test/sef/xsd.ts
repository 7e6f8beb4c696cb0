/**
 * Validates a UBL document against the OASIS UBL 2.1 schemas (test/fixtures/ubl-2.1) with `xmllint`
 * (Debian's libxml2-utils, installed by .ci/run). Offline: the schemas import each other by relative path.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const XSD_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/ubl-2.1/xsd/maindoc');

export const HAVE_XMLLINT = spawnSync('xmllint', ['--version']).status === 0;

/** '' when valid, else xmllint's complaint. */
export function ublProblems(xml: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kasa-ubl-'));
  const file = path.join(dir, 'doc.xml');
  writeFileSync(file, xml);
  const root = /<(Invoice|CreditNote)\s/.exec(xml)?.[1] ?? 'Invoice';
  const xsd = path.join(XSD_DIR, `UBL-${root}-2.1.xsd`);
  try {
    execFileSync('xmllint', ['--noout', '--nonet', '--schema', xsd, file], { stdio: 'pipe' });
    return '';
  } catch (e) {
    const err = e as { stderr?: Buffer };
    return err.stderr?.toString() ?? String(e);
  }
}

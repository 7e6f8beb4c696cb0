/**
 * The hub's API is declared once (issue 39): no hub path is written in code outside its contract (shared/hub/).
 * Every string literal and template text of the project's code is read (comments may name a path), and one that
 * holds a hub path fails, naming the file and line. Tests that call raw paths on purpose, as an attacker or
 * another program would, are allowed by folder. The check itself is shown to fail on a planted string.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { HUB_API } from '../../shared/hub/contract.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const SCANNED = ['electron', 'renderer', 'shared', 'hub', 'scripts', 'bench', 'test'];
/** Where hub paths may be written: the contract, and tests that call raw paths on purpose. */
const ALLOWED = [
  'shared/hub/',
  // The hub's own tests probe its HTTP surface as an outsider would (bad input, forged credentials, raw bodies).
  'test/hub/',
  // The browser tests set a hub up over HTTP before driving its UI.
  'test/e2e/',
  // The pinned transport's test runs its own fake server under hub-like paths.
  'shared/node/tls-cert.test.ts',
];

/** The roots of the hub's paths (`/api/till/`, `/api/admin/`, `/api/enrol` …), from the contract. */
const roots = [
  ...new Set(
    Object.values(HUB_API).map((e) => {
      const segs = e.path.split('/');
      return segs.length > 3 ? `${segs.slice(0, 3).join('/')}/` : segs.join('/');
    }),
  ),
];
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// `/api/health` but not `/api/healthy`; `/api/till/` followed by anything.
const hubPath = new RegExp(roots.map((r) => (r.endsWith('/') ? escape(r) : `${escape(r)}(?![\\w-])`)).join('|'));

function* codeFiles(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'out') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* codeFiles(full);
    else if (/\.(ts|tsx|mts|js|mjs)$/.test(entry.name)) yield full;
  }
}

/** Each string literal or template text of `file` that holds a hub path, as `file:line: text`. */
function hubPathsIn(file: string, root: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  if (!text.includes('/api/')) return [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isStringLiteral(node) ||
        ts.isNoSubstitutionTemplateLiteral(node) ||
        ts.isTemplateHead(node) ||
        ts.isTemplateMiddle(node) ||
        ts.isTemplateTail(node)) &&
      hubPath.test(node.text)
    ) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push(`${path.relative(root, file)}:${line}: ${node.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every hub path written outside the allowed places under `root`. */
function strayHubPaths(root: string, allowed: readonly string[]): string[] {
  const stray: string[] = [];
  for (const top of SCANNED) {
    const dir = path.join(root, top);
    if (!fs.existsSync(dir)) continue;
    for (const file of codeFiles(dir)) {
      const rel = path.relative(root, file).split(path.sep).join('/');
      if (allowed.some((a) => rel === a || (a.endsWith('/') && rel.startsWith(a)))) continue;
      stray.push(...hubPathsIn(file, root));
    }
  }
  return stray;
}

describe('hub paths are written only in the contract', () => {
  it('knows the hub’s path roots from the contract', () => {
    expect(roots).toEqual(expect.arrayContaining(['/api/health', '/api/enrol', '/api/till/', '/api/admin/']));
  });

  it('finds no hub path outside shared/hub/ and the allowed test folders', () => {
    expect(strayHubPaths(ROOT, ALLOWED)).toEqual([]);
  }, 120_000);

  it('fails on a planted path, in a string or a template, and not on a comment or another server’s /api/', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-hub-paths-'));
    try {
      fs.mkdirSync(path.join(root, 'renderer', 'src'), { recursive: true });
      fs.mkdirSync(path.join(root, 'electron'), { recursive: true });
      fs.mkdirSync(path.join(root, 'test', 'hub'), { recursive: true });
      fs.writeFileSync(
        path.join(root, 'renderer', 'src', 'planted.ts'),
        [
          '// GET /api/admin/products in a comment is documentation',
          "export const a = fetch('/api/admin/products');",
          'export const b = (u: string) => fetch(`${u}/api/till/push`);',
          "export const c = '/api/events/ticket';",
        ].join('\n'),
      );
      fs.writeFileSync(path.join(root, 'electron', 'lpfr.ts'), "export const s = '/api/v3/status';\n");
      fs.writeFileSync(path.join(root, 'test', 'hub', 'attack.test.ts'), "export const x = '/api/till/push';\n");
      expect(strayHubPaths(root, ALLOWED)).toEqual([
        'renderer/src/planted.ts:2: /api/admin/products',
        'renderer/src/planted.ts:3: /api/till/push',
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

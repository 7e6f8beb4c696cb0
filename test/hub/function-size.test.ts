/**
 * No function in hub/ is over 150 lines (issue 39: the hub's services by area, the server built from the contract).
 * Every hub/**\/*.ts is parsed with the TypeScript compiler, and every function, arrow, method, accessor and
 * constructor is measured from the first to the last line of its body (a closure counts the functions it holds:
 * a 1,000-line factory is a 1,000-line function whatever it returns). The failure names each one over the limit.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LIMIT = 150;

interface Measured {
  where: string;
  name: string;
  lines: number;
}

function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText();
  if (ts.isCallExpression(parent))
    return `(callback of ${parent.expression.getText().replace(/\s+/g, '').slice(0, 40)})`;
  return '(anonymous)';
}

/** Every function-like node of a source text with its body's length in lines. */
export function measure(file: string, text: string): Measured[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: Measured[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const body = node.body as ts.Node;
      const first = source.getLineAndCharacterOfPosition(body.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(body.getEnd()).line;
      out.push({
        where: `${file}:${first + 1}`,
        name: nameOf(node as ts.FunctionLikeDeclaration),
        lines: last - first + 1,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function hubFiles(): string[] {
  return fs
    .readdirSync(path.join(ROOT, 'hub'), { recursive: true, encoding: 'utf8' })
    .map((f) => path.posix.join('hub', f.split(path.sep).join('/')))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .sort();
}

describe('hub/ function sizes', () => {
  it('measures what it should: a long method, arrow and nested closure are each found and named', () => {
    const body = (n: number): string => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const text = [
      `export function outer() {`,
      `  const inner = () => {`,
      body(160),
      `  };`,
      `  return { method() {`,
      body(3),
      `  } };`,
      `}`,
    ].join('\n');
    const found = measure('x.ts', text);
    expect(found.find((m) => m.name === 'outer')?.lines).toBe(text.split('\n').length);
    expect(found.find((m) => m.name === 'inner')?.lines).toBe(162);
    expect(found.find((m) => m.name === 'method')?.lines).toBe(5);
  });

  it(`has no function over ${LIMIT} lines in hub/`, () => {
    const files = hubFiles();
    expect(files).toContain('hub/service.ts');
    const long = files
      .flatMap((f) => measure(f, fs.readFileSync(path.join(ROOT, f), 'utf8')))
      .filter((m) => m.lines > LIMIT)
      .map((m) => `${m.where} ${m.name}: ${m.lines} lines`);
    expect(long).toEqual([]);
  });
});

// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** The till's domain folders: each builds on the order repository (electron/orders/), which imports none of them. */
const ordersMayNotImport = [
  'sales',
  'manager',
  'goods',
  'printer',
  'catalog',
  'shifts',
  'hub-client',
  'lpfr',
  'sandbox',
  'host',
];

/**
 * The app never imports test code: the L-PFR sandbox (test/support/lpfr-sandbox/) is a development double that only
 * tests, benchmarks and `npm run lpfr-sandbox` start (docs/lpfr.md).
 */
const appNeverImportsTest = {
  group: ['**/test/**'],
  message: 'The app never imports test code (test/support/, the L-PFR sandbox).',
};

/** The store hub and the till are two deployables: what both need lives in shared/. */
const tillNotHub = {
  group: ['**/hub/*', '!**/shared/hub/*'],
  message: 'The till may not import the hub: move it to shared/.',
};

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'http', 'https', 'net', 'child_process', 'crypto', 'url', 'stream'];

/** Code that runs outside Node (the renderer, shared/) imports neither Node nor Electron: `message` says why. */
const noNodeOrElectron = (/** @type {string} */ message) => ({
  group: ['electron', 'electron/*', ...nodeBuiltins],
  message,
});

/** The one rule of the import boundaries below: these patterns are refused. */
const restrictImports = (/** @type {{ group: string[]; message: string }[]} */ ...patterns) => ({
  'no-restricted-imports': ['error', { patterns }],
});

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'release/', 'coverage/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      // Prettier wraps code at 120; this holds comments to the same width (long strings stay whole, for grep).
      'max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true, ignoreRegExpLiterals: true },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...restrictImports(
        noNodeOrElectron('The renderer talks to the core only through the contract.'),
        { group: ['**/electron/**', '../../electron/*'], message: 'The renderer may not import the main process.' },
        { group: ['**/shared/node/**'], message: 'shared/node/ is Node-only code of the till and the hub.' },
        appNeverImportsTest,
        {
          group: ['**/hub/**', '!**/shared/hub/**'],
          message: 'The hub UI talks to the hub only through its contract (shared/hub/): never hub/.',
        },
      ),
    },
  },
  // shared/ imports neither side nor Node, and never the hub (the hub imports shared/, not the other way round).
  // An import is its text, so the hub's folder is named by depth: from shared/x/y.ts, `../hub/` is shared/hub/
  // and `../../hub/` the hub.
  ...[1, 2, 3, 4].map((depth) => ({
    files: [`shared/${'*/'.repeat(depth - 1)}*.ts`],
    ignores: ['shared/**/*.test.ts', 'shared/node/**'],
    rules: restrictImports(
      noNodeOrElectron('shared/ runs on both sides: no Node or Electron.'),
      { group: ['**/electron/**', '**/renderer/**'], message: 'shared/ imports neither side.' },
      appNeverImportsTest,
      {
        group: [`${'../'.repeat(depth)}hub/**`],
        message: 'shared/ may not import the hub: the hub imports shared/, never the other way round.',
      },
    ),
  })),
  {
    // The store hub and the till are two deployables: what both need lives in shared/ (the protocol in
    // shared/hub/, Node-only helpers in shared/node/), so neither ever imports the other.
    files: ['hub/**/*.ts'],
    rules: restrictImports({
      group: ['**/electron/**'],
      message: 'The hub may not import the till: move it to shared/.',
    }),
  },
  {
    files: ['electron/**/*.ts'],
    rules: restrictImports(tillNotHub),
  },
  {
    files: ['electron/**/*.ts'],
    ignores: ['electron/**/*.test.ts'],
    rules: restrictImports(tillNotHub, appNeverImportsTest),
  },
  {
    // The order repository is what the areas build on (docs/architecture.md): it may rest on the database, the
    // gateway's types, the outbox's receipt checks, settings and auth, but never on an area that uses it.
    files: ['electron/orders/**/*.ts'],
    ignores: ['electron/orders/**/*.test.ts'],
    rules: restrictImports(tillNotHub, appNeverImportsTest, {
      group: ordersMayNotImport.map((area) => `../${area}/*`),
      message: 'electron/orders/ imports no domain folder: pass what it needs in, or move it to orders/.',
    }),
  },
);

// ESLint (flat config): typescript-eslint's type-checked rules, React's hook rules, and the import
// boundaries that keep the house easy to change (README "Folders"). Run by `npm run lint`, part of `npm test`.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const features = readdirSync('web/features', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const modules = readdirSync('api/modules', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Each zone: files under `target` may not import from `from` (minus `except`, relative to `from`). */
const boundaries = [
  {
    target: './web',
    from: './api',
    except: ['./contract'],
    message: 'The web app imports only api/contract from the server side.',
  },
  { target: './web', from: ['./db', './scripts'], message: 'The web app imports only api/contract from the server side.' },
  ...features.map((feature) => ({
    target: `./web/features/${feature}`,
    from: './web/features',
    except: [`./${feature}`],
    message: 'A feature imports no other feature: move what both need to web/components/ or web/lib/.',
  })),
  { target: ['./web/components', './web/lib'], from: ['./web/features', './web/app'], message: 'Shared web code imports no feature and no route.' },
  { target: './web/features', from: './web/app', message: 'Features do not import routes: routes import features.' },
  { target: './db', from: ['./api', './web', './scripts'], message: 'db/ imports no module: modules import db/.' },
  ...modules.map((module) => ({
    target: `./api/modules/${module}`,
    from: './api/modules',
    except: [`./${module}`, ...modules.filter((other) => other !== module).map((other) => `./${other}/index.ts`)],
    message: "A module imports another only through its top-level index.ts (never a file or a capability folder inside it), and reacts to another's events rather than calling its side effects.",
  })),
  {
    target: ['./api/plugins', './api/events', './api/jobs', './api/contract', './api/lib'],
    from: './api/modules',
    message: 'Plugins, events, jobs and lib import no module: modules register with them.',
  },
  {
    target: './api/contract',
    from: ['./api', './db', './web'],
    except: ['./contract'],
    message: 'The contract imports zod only, so both sides can share it.',
  },
];

/**
 * A prepared query's `build` (db/prepared.ts) runs once, with stand-ins for its parameters: a branch
 * or loop in it would fix the shape of the first call for every later one. Its rule is checked here:
 * no if, ?:, &&, ||, ??, switch or loop inside a function handed to prepareQuery (a query whose shape
 * depends on its input is one prepared query per shape, chosen outside).
 */
const preparedBuildsDoNotBranch = {
  selector:
    "CallExpression[callee.name='prepareQuery'] > :function :matches(IfStatement, ConditionalExpression, LogicalExpression, SwitchStatement, ForStatement, ForInStatement, ForOfStatement, WhileStatement, DoWhileStatement)",
  message: 'A prepared query is built once (db/prepared.ts): its build must not branch or loop; prepare one query per shape instead.',
};

const onlyDbOpensTransactions = [
  {
    selector: 'CallExpression[callee.property.name=/^(transaction|connection)$/][arguments.length=0]',
    message: 'Only db/ opens transactions: write with app.write(async (tx) => ...).',
  },
  {
    selector: "MemberExpression[property.name='transactions'][object.name='app']",
    message: 'Write with app.write(async (tx) => ...): app.transactions is its implementation.',
  },
];
const statementsInRepositories = {
  selector: 'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/]',
  message: "A module's statements live in its repository, which takes the write's transaction (tx.db) or the app's db for a read: never a query in a route, a socket handler or a service.",
};
/** Test code: the shared helpers of test/, each test file, and the web app's test helpers beside its features. */
const testCode = ['./test/**', '**/*.test.ts', '**/*.test.tsx', './web/test/**', './web/features/*/test/**'];

/** Production code (and scripts/: the commands, benches and services) imports no test code. */
const productionCode = {
  files: ['api/**', 'db/**', 'web/**', 'scripts/**'],
  ignores: testCode.map((pattern) => pattern.replace(/^\.\//, '')),
};
const noTestCode = {
  target: ['./api', './db', './web', './scripts'],
  from: testCode,
  message: 'Production code and scripts/ import no test code: a helper both need belongs in the code (or scripts/services/), not in test/.',
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'playwright-report/', 'bench-results/', 'data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['eslint.config.js'] }, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node, ...globals.browser },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      // Fastify plugins, hooks and handlers are async by contract, with or without an await inside.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'import-x/no-restricted-paths': ['error', { zones: boundaries }],
      // Type imports count too: a cycle of types is still two files that cannot be read apart.
      'import-x/no-cycle': ['error', { allowUnsafeDynamicCyclicDependency: false }],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: { 'no-restricted-syntax': ['error', preparedBuildsDoNotBranch] },
  },
  {
    // One way to write (DESIGN 14): a module changes data in `app.write(async (tx) => ...)`, its
    // statements in a repository taking the transaction; only db/ opens transactions. The write path
    // itself (api/events) and the job runner's one-statement claims and outcomes (api/jobs/index.ts)
    // are the two that use app.transactions.
    files: ['api/**/*.ts'],
    ignores: ['**/*.test.ts', 'api/events/**', 'api/jobs/index.ts'],
    rules: { 'no-restricted-syntax': ['error', ...onlyDbOpensTransactions, preparedBuildsDoNotBranch] },
  },
  {
    files: ['api/modules/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.repository.ts'],
    rules: { 'no-restricted-syntax': ['error', ...onlyDbOpensTransactions, statementsInRepositories, preparedBuildsDoNotBranch] },
  },
  {
    ...productionCode,
    rules: { 'import-x/no-restricted-paths': ['error', { zones: [...boundaries, noTestCode] }] },
  },
  {
    // Tests read the answers as untyped JSON (`response.json()`) and assert their shape: `any` flows
    // there by design. Writing `any` stays an error everywhere.
    files: ['e2e/**', ...testCode.map((pattern) => pattern.replace(/^\.\//, ''))],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Request bodies the tests sent themselves are strings.
      '@typescript-eslint/no-base-to-string': 'off',
      // Vitest drops an afterAll registered inside a running test or a beforeAll without a word, and
      // whatever it would have stopped stays running: cleanUpLater (test/support/cleanup.ts) never drops one.
      'no-restricted-syntax': [
        'error',
        preparedBuildsDoNotBranch,
        {
          selector: "CallExpression[callee.name=/^(it|test|beforeAll|beforeEach)$/] CallExpression[callee.name=/^(afterAll|afterEach)$/]",
          message: 'An afterAll inside a test or a beforeAll is dropped by Vitest: use cleanUpLater (test/support/cleanup.ts) or onTestFinished.',
        },
        {
          selector: "CallExpression[callee.object.name=/^(it|test|describe)$/][callee.property.name=/^(each|for|skipIf|runIf|only|skip|concurrent)$/] CallExpression[callee.name=/^(afterAll|afterEach)$/]",
          message: 'An afterAll inside a test or a beforeAll is dropped by Vitest: use cleanUpLater (test/support/cleanup.ts) or onTestFinished.',
        },
      ],
    },
  },
  {
    // No source file over 400 lines, tests and migrations included: a longer file is two things that
    // want splitting along their seam (README "Folders"). Counted as `wc -l` counts them.
    files: ['api/**/*.{ts,tsx}', 'db/**/*.ts', 'web/**/*.{ts,tsx}', 'scripts/**/*.ts', 'test/**/*.ts', 'e2e/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  { files: ['eslint.config.js'], ...tseslint.configs.disableTypeChecked },
);

// ESLint: TypeScript (no `any`), React hooks, and the import boundaries between the parts of src/
// (bulletproof-react's zones, written with the built-in no-restricted-imports):
// - src/lib and src/components import neither src/features nor src/app;
// - a feature never imports src/app, nor another feature's inner files: only its index.ts;
// - src/testing (the harness) imports no feature;
// - only tests import a testing folder.
// no-restricted-imports sees the import's text, not where it leads, so each zone's patterns are
// written for the depth of the files it covers; one files-block per zone, since a later block's
// options for the same rule replace an earlier one's.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const TS = '{ts,tsx}';
// Tests and the testing folders beside them (test support: they may import src/testing).
const TESTS = [`**/*.test.${TS}`, '**/testing/**'];
const up = (n) => '\\.\\./'.repeat(n);

const NO_APP_ANY = { regex: '^(\\.\\./)+app(/|$)', message: 'src/lib and src/components never import src/app: what they need lives in src/lib.' };
const NO_FEATURES_ANY = { regex: '^(\\.\\./)+features(/|$)', message: 'Only src/app and features import a feature.' };
const NO_TESTING = { regex: '(^|/)testing(/|$)', message: 'Only tests import a testing folder.' };

/** For a file `depth` folders below src/features/<feature>/ (0: the feature's own folder). */
function featureZone(depth) {
  const toFeatures = depth + 1;
  return [
    { regex: `^${up(toFeatures + 1)}app(/|$)`, message: 'A feature never imports src/app: use src/lib (lib/store for the hooks).' },
    {
      regex: `^${up(toFeatures)}(?!\\.\\.)[^/]+/`,
      message: 'Another feature is imported through its index.ts only (`../../payments`), never its inner files.',
    },
    { regex: `^${up(toFeatures + 1)}features/`, message: 'Another feature is imported through its index.ts only, by a path within src/features.' },
  ];
}

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

const featureBlocks = [0, 1, 2].flatMap((depth) => {
  const files = [`src/features/*/${'*/'.repeat(depth)}*.${TS}`];
  return [
    { files, ignores: TESTS, rules: restrict([...featureZone(depth), NO_TESTING]) },
    {
      files: [`src/features/*/${'*/'.repeat(depth)}*.test.${TS}`, ...(depth > 0 ? [`src/features/*/${'*/'.repeat(depth - 1)}testing/*.${TS}`] : [])],
      rules: restrict(featureZone(depth)),
    },
  ];
});

export default tseslint.config(
  { ignores: ['dist', 'dev-dist', 'node_modules', 'src/lib/api/schema.ts'] },
  {
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    files: [`**/*.${TS}`],
    languageOptions: { ecmaVersion: 2022, globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  { files: [`src/lib/**/*.${TS}`, `src/components/**/*.${TS}`], ignores: TESTS, rules: restrict([NO_APP_ANY, NO_FEATURES_ANY, NO_TESTING]) },
  { files: [`src/lib/**/*.test.${TS}`, `src/components/**/*.test.${TS}`], rules: restrict([NO_APP_ANY, NO_FEATURES_ANY]) },
  ...featureBlocks,
  { files: [`src/testing/**/*.${TS}`], rules: restrict([NO_FEATURES_ANY]) },
  {
    files: [`src/app/**/*.${TS}`, `src/main.tsx`],
    ignores: TESTS,
    rules: restrict([{ regex: '^(\\.\\./)*\\.?\\.?/?features/payments/', message: 'features/payments is imported through its index.ts only.' }, NO_TESTING]),
  },
  {
    files: ['e2e/**/*.mjs', 'scripts/**/*.mjs', '*.js'],
    extends: [js.configs.recommended],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: globals.node },
  },
);

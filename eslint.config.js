import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/generated/**', '**/.data/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', { selector: "MemberExpression[object.name='process'][property.name='env']", message: 'Read the environment in @vp/config only.' }],
    },
  },
  {
    // Small files with one job, functions that fit on a screen (the bounds; tests may run longer).
    files: ['packages/**/*.ts', 'packages/**/*.tsx', 'services/**/*.ts', 'services/**/*.tsx'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', '**/src/testing/**', 'packages/testing/**'],
    rules: {
      'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['packages/config/**', 'packages/devstack/**', 'scripts/**', '**/*.test.ts', 'packages/testing/**', '**/src/testing/**', 'bench/**', 'e2e/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // The renderer loads the canvas library through one module, which configures its allocator first.
    files: ['packages/render/src/**/*.ts'],
    ignores: ['packages/render/src/canvas.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: '@napi-rs/canvas', message: "Import it from the renderer's canvas.ts." }] }],
    },
  },
  {
    // Workflow code must stay deterministic and bundleable, and light: every run evaluates its
    // bundle afresh. An allowlist: Temporal's workflow API, the zod-free parts of the contracts
    // (and types from the rest), and files of its own package.
    files: ['packages/workflows/src/**/*.ts'],
    ignores: ['packages/workflows/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          {
            regex: '^(?!@temporalio/workflow$|@vp/contracts(?:/temporal|/webhook-attempt)?$|\\./|\\.\\./(?!\\.\\./)).*',
            message: 'Workflow code imports only @temporalio/workflow, the zod-free parts of @vp/contracts and files of its own package.',
          },
          {
            regex: '^@vp/contracts$', allowTypeImports: true,
            message: 'Only types from @vp/contracts here: its values bring zod into every workflow run (values: @vp/contracts/temporal).',
          },
        ],
      }],
    },
  },
);

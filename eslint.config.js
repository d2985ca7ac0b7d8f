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
    // Workflow code must stay deterministic and bundleable: no Node built-ins, no database.
    files: ['packages/workflows/src/**/*.ts'],
    ignores: ['packages/workflows/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['node:*'], message: 'Workflow code may not use Node built-ins.' },
          { group: ['@prisma/*', '@vp/db', '@vp/db/*', 'pg'], message: 'Workflow code may not touch the database.' },
          { regex: '^(fs|path|os|crypto|http|https|net|child_process|stream|url|util|worker_threads|dns|zlib)(/.*)?$', message: 'Workflow code may not use Node built-ins.' },
        ],
      }],
    },
  },
);

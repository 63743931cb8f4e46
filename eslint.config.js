import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { boundaryZones } from './tools/lint/boundaries.js';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules',
      '.tools',
      '**/dist',
      'cdk.out',
      '.local',
      '**/*.d.ts',
      'test-results',
      'tools/lint/fixtures',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
          conditionNames: ['import', 'default'],
        }),
      ],
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['error', 'warn', 'log', 'table'] }],
      // Layers by path (tools/lint/boundaries.js): features, shared code, domain, contracts.
      'import-x/no-restricted-paths': ['error', { zones: boundaryZones }],
      // Type-only imports are erased and cannot form a cycle at run time.
      'import-x/no-cycle': ['error', { ignoreExternal: true, allowUnsafeDynamicCyclicDependency: false }],
    },
  },
  {
    files: ['frontend/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['frontend/src/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // Off on purpose: focus moves into an opened dialog's first field and to the sign-in form's
      // e-mail field, as the WAI-ARIA dialog pattern asks; nothing else takes focus on its own.
      'jsx-a11y/no-autofocus': 'off',
      // A focusable separator is a widget (ARIA 1.2's splitter) and an application takes its own keys.
      'jsx-a11y/no-noninteractive-tabindex': [
        'error',
        { tags: [], roles: ['tabpanel', 'separator', 'application'] },
      ],
    },
  },
  {
    // Classic scripts served as they are (public/theme-boot.js runs before the app's bundle).
    files: ['frontend/public/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
  },
  {
    // Domain code names the ports it needs; the packages of AWS, middy and Lambda are wired by the
    // Lambda entry points (the composition roots). Our own folders: the zones above.
    files: ['functions/src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@aws-sdk/*', '@middy/*', 'aws-lambda', '@aws-lambda-powertools/*'],
              message: 'Domain code imports no AWS SDK, middy or Lambda types: name a port.',
            },
          ],
        },
      ],
    },
  },
);

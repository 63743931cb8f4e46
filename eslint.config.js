import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Features of the front end: each imports only itself and shared code, never another feature. */
const features = readdirSync(new URL('./frontend/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const featureBoundaries = features.map((feature) => ({
  files: [`frontend/src/features/${feature}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: features
              .filter((other) => other !== feature)
              .flatMap((other) => [`../${other}`, `../${other}/**`, `../../${other}`, `../../${other}/**`]),
            message:
              'Features do not import each other: move what both need to shared/, or compose them in app/.',
          },
        ],
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['**/node_modules', '.tools', '**/dist', 'cdk.out', '.local', '**/*.d.ts', 'test-results'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['error', 'warn', 'log', 'table'] }],
    },
  },
  {
    files: ['frontend/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Classic scripts served as they are (public/theme-boot.js runs before the app's bundle).
    files: ['frontend/public/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
  },
  {
    // Domain code names the ports it needs; adapters, HTTP, AWS and configuration are wired by the
    // Lambda entry points (the composition roots).
    files: ['functions/src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/http/**',
                '**/stores/**',
                '**/adapters/**',
                '**/aws/**',
                '**/lambda/**',
                '**/config',
              ],
              message:
                'Domain code imports no HTTP, store, adapter, AWS, Lambda or configuration code: name a port.',
            },
            {
              group: ['@aws-sdk/*', '@middy/*', 'aws-lambda'],
              message: 'Domain code imports no AWS SDK, middy or Lambda types: name a port.',
            },
          ],
        },
      ],
    },
  },
  ...featureBoundaries,
);

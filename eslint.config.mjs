// Lint, plus the architecture rule: imports go domain <- application <- adapters <- main, never back.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const layer = (files, forbidden, message) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: forbidden.map((group) => ({ group: [group], message })) }],
  },
});

export default tseslint.config(
  { ignores: ['scratch/**', 'dist/**', 'node_modules/**', 'coverage/**', 'bench/results/**', 'bench/.build/**', 'public/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly', Buffer: 'readonly', __dirname: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', setImmediate: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  layer(
    ['src/domain/**/*.ts'],
    ['**/application/**', '**/adapters/**', '**/main/**', 'koa', 'koa-*', '@koa/*', 'ioredis', 'inversify', 'mysql2', 'mysql2/*', 'nodemailer', 'nodemailer/*', '@simplewebauthn/*', 'node:*', 'zod'],
    'src/domain is pure: it imports nothing outside src/domain (no Node APIs, no frameworks).',
  ),
  layer(
    ['src/application/**/*.ts'],
    [
      '**/adapters/**',
      '**/main/**',
      'koa',
      'koa-*',
      '@koa/*',
      'ioredis',
      'mysql2',
      'mysql2/*',
      'nodemailer',
      'nodemailer/*',
      'pino',
      'otpauth',
      'qrcode',
      '@simplewebauthn/*',
    ],
    'src/application imports only src/domain and its own ports (no adapters, no Koa, no ioredis, no mailer, OTP, QR or WebAuthn library).',
  ),
  layer(['src/adapters/**/*.ts'], ['**/main/**'], 'src/adapters must not import the composition roots (src/main).'),
  {
    files: ['src/**/*.ts'],
    ignores: ['src/main/**'],
    rules: {
      'no-restricted-syntax': ['error', { selector: "NewExpression[callee.name='Container']", message: 'Only src/main creates the inversify container.' }],
    },
  },
  // Size limits: a file or a function that outgrows them is split by what its parts do.
  {
    files: ['src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 300, skipBlankLines: true, skipComments: true }],
      // Counted on Prettier's output (npm run lint checks it), which spreads a long call over several lines.
      'max-lines-per-function': ['error', { max: 70, skipBlankLines: true, skipComments: true }],
    },
  },
  // Worker-thread entries and the bin launcher are plain CommonJS (a Worker cannot load .ts).
  {
    files: ['src/**/*.js', 'bin/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  { files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'], rules: { 'no-console': 'off', '@typescript-eslint/no-unused-expressions': 'off' } },
  // The stand-in admin SPA of the browser tests runs in the browser, as a plain script.
  {
    files: ['test/browser/spa/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { window: 'writable', document: 'readonly', fetch: 'readonly', crypto: 'readonly', atob: 'readonly', btoa: 'readonly', TextEncoder: 'readonly' },
    },
  },
);

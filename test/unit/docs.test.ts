import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CATALOGUE } from '../../src/adapters/koa/error-catalogue';
import { CONFIG_KEYS, envNameOf } from '../../src/main/config';
import { REASONS } from '../../src/domain/errors';
import { PromMetrics } from '../../src/adapters/metrics/prom-metrics';

const configuration = readFileSync(path.join(__dirname, '../../docs/configuration.md'), 'utf8');
const errors = readFileSync(path.join(__dirname, '../../docs/errors.md'), 'utf8');

describe('docs/configuration.md and docs/errors.md stay in step with the code', () => {
  it('docs/configuration.md documents every configuration key with its environment variable', () => {
    for (const key of CONFIG_KEYS) {
      assert.ok(configuration.includes(`| \`${key}\` | \`${envNameOf(key)}\``), `docs/configuration.md lacks config key ${key}`);
    }
  });
  it('docs/errors.md documents every error reason with its status and admin code', () => {
    for (const reason of REASONS) {
      const e = ERROR_CATALOGUE[reason];
      assert.ok(errors.includes(`| \`${reason}\` | ${e.status} | ${e.code} |`), `docs/errors.md lacks reason ${reason}`);
    }
  });
  it('admin codes are unique and never 0', () => {
    const codes = Object.values(ERROR_CATALOGUE).map((e) => e.code);
    assert.equal(new Set(codes).size, codes.length);
    assert.ok(!codes.includes(0));
  });
});

describe('docs/ stays in step with the code', () => {
  const doc = (name: string) => readFileSync(path.join(__dirname, '../../docs', name), 'utf8');

  it('operations.md names every metric the apps export and every prod secret', async () => {
    const ops = doc('operations.md');
    const names = (await new PromMetrics({ app: 'docs' }).registry.getMetricsAsJSON()).map((m) => m.name);
    assert.ok(names.length >= 6);
    for (const n of names) assert.ok(ops.includes(`\`${n}\``), `operations.md lacks metric ${n}`);
    for (const v of [
      'SVC_RSA_PRIVATE_KEY',
      'SVC_REDIS_URL',
      'SVC_SECURITY_SIGN_APPS',
      'SVC_IDEMPOTENCY_TOKEN_SECRET',
      'SVC_MFA_ENCRYPTION_KEY',
      'svc.trusted-proxies',
      'svc.actuator.exposure',
      'APP_PROFILE',
    ]) {
      assert.ok(ops.includes(v), `operations.md lacks ${v}`);
    }
  });

  it('integration-admin.md gives the envelope code of every login and refresh failure it names', () => {
    const admin = doc('integration-admin.md');
    for (const reason of ['bad-credentials', 'captcha-missing', 'rate-limited', 'account-locked', 'refresh-token-reused'] as const) {
      assert.ok(admin.includes(reason) && admin.includes(String(ERROR_CATALOGUE[reason].code)), `integration-admin.md: ${reason}`);
    }
    assert.ok(admin.includes('encryptOAEP(unescape(encodeURIComponent('), 'the JSEncrypt UTF-8 note');
  });

  it('integration-third-party.md gives the status and admin code of every signing failure', () => {
    const third = doc('integration-third-party.md');
    for (const reason of REASONS.filter((r) => r.startsWith('sign-'))) {
      const e = ERROR_CATALOGUE[reason];
      assert.ok(third.includes(`| \`${reason}\` | ${e.status} | ${e.code} |`), `integration-third-party.md lacks ${reason}`);
    }
  });
});

/** Markdown outside fenced code blocks (a `# comment` in a shell snippet is no heading, a `](x)` in code no link). */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to `-`, `-1`, `-2`... for repeats. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = m[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

describe('links between README.md and docs/ resolve', () => {
  const root = path.join(__dirname, '../..');
  const files = [
    'README.md',
    ...readdirSync(path.join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  it('every relative link points to an existing file, and its #anchor (when given) to a heading there', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const file of files) {
      const text = readFileSync(path.join(root, file), 'utf8');
      for (const m of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
        const href = m[1]!;
        if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue; // http:, https:, mailto:
        const [target = '', anchor] = href.split('#');
        const resolved = target === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), target));
        checked++;
        if (!existsSync(path.join(root, resolved))) {
          broken.push(`${file}: ${href} (no file ${resolved})`);
          continue;
        }
        if (anchor && !anchorsOf(readFileSync(path.join(root, resolved), 'utf8')).has(anchor)) {
          broken.push(`${file}: ${href} (no heading #${anchor} in ${resolved})`);
        }
      }
    }
    assert.ok(checked >= 20, `only ${checked} links found: is the pattern still right?`);
    assert.deepEqual(broken, []);
  });

  it('README.md links every doc in docs/', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    for (const file of files.filter((f) => f !== 'README.md')) {
      assert.ok(readme.includes(`](${file})`), `README.md does not link ${file}`);
    }
  });

  it('every source, test or db path the docs name exists', () => {
    const missing: string[] = [];
    for (const file of files) {
      const text = readFileSync(path.join(root, file), 'utf8');
      for (const m of text.matchAll(/\b((?:src|test|db|bench|config)\/[A-Za-z0-9_./-]+\.(?:ts|js|lua|yml|sql))\b/g)) {
        if (!/NNN|<|\*/.test(m[1]!) && !existsSync(path.join(root, m[1]!))) missing.push(`${file}: ${m[1]}`);
      }
    }
    assert.deepEqual(missing, []);
  });
});

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { prodEnv } from '../support/prod-env';

const root = path.join(__dirname, '../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');

describe('process start (prod, an rfc9421 signer, no public URL for a served app)', () => {
  for (const [args, named] of [
    [[], 'the admin and web apps'],
    [['web'], 'the web app'],
  ] as const) {
    it(
      `start.ts ${args.join(' ') || '(both apps)'} exits 1 before listening, naming ` + `svc.security.sign.public-urls for ${named}`,
      function () {
        this.timeout(30_000);
        const env: NodeJS.ProcessEnv = {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          ...prodEnv({ SVC_SECURITY_SIGN_SCHEMES: '{"partner":"rfc9421"}', SVC_ADMIN_PORT: '0', SVC_WEB_PORT: '0' }),
        };
        const r = spawnSync(tsx, ['src/main/start.ts', ...args], { cwd: root, env, encoding: 'utf8', timeout: 25_000 });
        assert.equal(r.status, 1, `${r.stdout}\n${r.stderr}`);
        assert.match(r.stderr, /^Refusing to start\./);
        assert.match(r.stderr, /svc\.security\.sign\.public-urls \(SVC_SECURITY_SIGN_PUBLIC_URLS\): required in prod/);
        assert.ok(r.stderr.includes(`for ${named} while "partner" may sign with rfc9421`), r.stderr);
        assert.ok(!r.stdout.includes('listening'), 'nothing listened');
      },
    );
  }
});

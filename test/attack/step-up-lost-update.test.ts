/**
 * Attack: step-up writes back the whole session record it read before its password compare
 * (StepUp.execute: `replaceRecord(tokenHash, { ...record, authTime, amr })`). An administrator who takes roles away
 * meanwhile has the live sessions' permission snapshots replaced (SessionManager.updatePrincipal), and the step-up's
 * write then puts the old permissions back: the demoted user keeps them for the rest of the session. The compare
 * takes a BCrypt's time, and a user who expects to be demoted can keep a step-up in flight. (ConfirmTotp and
 * LiftRequiredAction write back a whole record read earlier in the same way.)
 *
 * The password hasher is held open at the compare so the interleaving is exact; nothing else is changed.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { TOKENS } from '../../src/application/tokens';
import type { TestInfra } from '../support/apps';
import { encryptPassword } from '../support/flows';
import { bearer, lab, passwordSession, reasonOf } from './support';

describe('attack: a step-up in flight while an administrator takes the roles away', function () {
  this.timeout(60_000);
  let infra: TestInfra | undefined;
  afterEach(async () => infra?.dispose());

  it("the demoted session does not get its old permissions back when the step-up's write lands", async function () {
    const l = await lab(this, 'memory');
    infra = l.infra;
    const a = l.app('admin');
    const call = () => request(a.app.callback());
    const root = await passwordSession(a, 'admin', 'admin123');
    const viewer = await passwordSession(a, 'viewer', 'viewer123');
    await call().get('/system/user/list').set(bearer(viewer)).expect(200);

    // Hold the next password compare open until the roles have changed.
    const hasher = l.built.admin.container.get(TOKENS.PasswordHasher);
    const verify = hasher.verify.bind(hasher);
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    let entered: () => void = () => undefined;
    const inCompare = new Promise<void>((r) => (entered = r));
    hasher.verify = async (password, hash) => {
      const ok = await verify(password, hash);
      entered();
      await held;
      return ok;
    };

    const pem = (await call().get('/auth/getConfig').expect(200)).body.data.publicKey as string;
    const stepUp = call()
      .post('/auth/step-up')
      .set(bearer(viewer))
      .send({ password: encryptPassword(pem, 'viewer123') })
      .then((r) => r);
    await inCompare;
    hasher.verify = verify;
    const demoted = await call().post('/system/user/2/roles').set(bearer(root)).send({ roles: [] });
    assert.equal(demoted.status, 200, demoted.text);
    assert.equal(demoted.body.data.sessionsUpdated, 1);
    assert.equal(reasonOf(a, await call().get('/system/user/list').set(bearer(viewer))), 'permission-denied');
    release();
    assert.equal((await stepUp).status, 200);

    const after = await call().get('/system/user/list').set(bearer(viewer));
    assert.equal(reasonOf(a, after), 'permission-denied', 'the step-up wrote the old permissions back into the session');
  });
});

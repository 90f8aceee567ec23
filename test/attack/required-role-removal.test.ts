/**
 * Attack: svc.mfa.required-roles says a holder of the role works only with a second factor; it is checked when a
 * session is made (login, refresh). A holder removes their only factor (a step-up within the age is enough) and the
 * session goes on as a full one: the administrator works without a second factor until the session ends, and
 * whoever holds that session (stolen) can drop the factor the policy requires. Removing the last factor a role
 * requires should be refused, or leave the session restricted to enrolment as a login would.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import type { TestInfra } from '../support/apps';
import { bearer, enrolTotp, lab, nextIp, reasonOf } from './support';

describe('attack: removing the factor a required role needs', function () {
  this.timeout(60_000);
  let infra: TestInfra | undefined;
  afterEach(async () => infra?.dispose());

  it('admin: the session that removed the only factor is not a full one any more (or the removal is refused)', async function () {
    const l = await lab(this, 'memory', { 'svc.mfa.required-roles': 'admin' });
    infra = l.infra;
    const a = l.app('admin');
    const call = () => request(a.app.callback());
    const root = a.data(await a.passwordLogin('admin', 'admin123', nextIp())) as { accessToken: string; requiredActions: string[] };
    assert.deepEqual(root.requiredActions, ['mfa-enrolment']);
    await enrolTotp(a, root.accessToken, l.clock);
    assert.equal(reasonOf(a, await call().get('/system/user/list').set(bearer(root.accessToken))), 'ok');

    const removed = await call().delete('/auth/mfa/totp').set(bearer(root.accessToken));
    if (removed.status === 409) return; // refused: the role still has its factor
    assert.equal(removed.status, 204, removed.text);
    const after = await call().get('/system/user/list').set(bearer(root.accessToken));
    assert.equal(reasonOf(a, after), 'mfa-enrolment-required', 'a full admin session with no second factor left');
  });
});

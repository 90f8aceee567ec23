/**
 * Attack (self-inflicted loss): VerifyMfa spends the proof before it takes the mfaToken. Two answers to one mfaToken
 * in flight at once (a double submit, two tabs) both pass the proof; the one
 * that loses the mfaToken answers 401 mfa-token-invalid, but its recovery code is gone all the same (one of ten,
 * never to be shown again). A request that fails should leave the proof it brought unspent.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import type { TestInfra } from '../support/apps';
import { enrolTotp, lab, nextIp, passwordSession, reasonOf } from './support';

describe('attack: a recovery code spent by a second step that lost its mfaToken', function () {
  this.timeout(60_000);
  let infra: TestInfra | undefined;
  afterEach(async () => infra?.dispose());

  it('web: the recovery code of the answer refused with mfa-token-invalid still works', async function () {
    const l = await lab(this, 'memory');
    infra = l.infra;
    const a = l.app('web');
    const [username, password] = a.users[0] as [string, string];
    const { recoveryCodes } = await enrolTotp(a, await passwordSession(a, username, password), l.clock);
    l.clock.advance(30_000);
    const mfaToken = () => a.passwordLogin(username, password, nextIp()).then((r) => (a.data(r) as { mfaToken: string }).mfaToken);
    const verify = (body: object) => request(a.app.callback()).post('/auth/mfa/verify').set('X-Forwarded-For', nextIp()).send(body);
    const token = await mfaToken();
    const answers = await Promise.all([0, 1].map((i) => verify({ mfaToken: token, recoveryCode: recoveryCodes[i] })));
    const outcomes = answers.map((r) => reasonOf(a, r));
    assert.deepEqual([...outcomes].sort(), ['mfa-token-invalid', 'ok']);
    const lost = recoveryCodes[outcomes.indexOf('mfa-token-invalid')];
    const again = await verify({ mfaToken: await mfaToken(), recoveryCode: lost });
    assert.equal(reasonOf(a, again), 'ok', 'the recovery code was spent by an answer that was refused');
  });
});

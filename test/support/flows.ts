/**
 * Client-side steps the suites on real Redis deployments share (Sentinel, Cluster): an admin login
 * with the password RSA-encrypted as the login page does it, the headers of a signed request,
 * waiting for readiness. A target is an app built in-process or the base URL of a running one.
 */
import { constants, createHmac, publicEncrypt, randomBytes } from 'node:crypto';
import type Koa from 'koa';
import request from 'supertest';

export type Target = Koa | string;

/** A supertest agent on an in-process app or a URL. */
export const agent = (t: Target) => request(typeof t === 'string' ? t : t.callback());

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** RSA-OAEP / SHA-256 with the published key: what the login page sends as `password`. */
export function encryptPassword(publicKeyPem: string, password: string): string {
  return publicEncrypt(
    { key: publicKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(password, 'utf8'),
  ).toString('base64');
}

/**
 * POST /auth/login on the admin app from client address `ip` (the suites trust loopback as a
 * proxy, so X-Forwarded-For picks the address); the public key is fetched from /auth/getConfig once.
 */
export function adminLogin(admin: Target): (username: string, password: string, ip: string) => Promise<request.Response> {
  let key: Promise<string> | undefined;
  return async (username, password, ip) => {
    key ??= agent(admin)
      .get('/auth/getConfig')
      .then((r) => {
        if (r.status !== 200) throw new Error(`GET /auth/getConfig: ${r.status} ${r.text}`);
        return r.body.data.publicKey as string;
      });
    const pem = await key.catch((e: unknown) => {
      key = undefined;
      throw e;
    });
    return agent(admin)
      .post('/auth/login')
      .set('X-Forwarded-For', ip)
      .send({ username, password: encryptPassword(pem, password) });
  };
}

/** The four headers of a signed request over `body` (HMAC-SHA256 of app key + timestamp + nonce + body), a fresh nonce each call. */
export function signedHeaders(appKey: string, secret: string, body: string): Record<string, string> {
  const ts = String(Date.now());
  const nonce = randomBytes(12).toString('hex');
  return {
    'X-App-Key': appKey,
    'X-Timestamp': ts,
    'X-Nonce': nonce,
    'X-Sign': createHmac('sha256', secret)
      .update(appKey + ts + nonce + body)
      .digest('hex'),
  };
}

/** Polls /actuator/health/readiness until it answers 200 (a cold client first finds its Redis), at most `ms`. */
export async function untilReady(t: Target, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  let last = '';
  while (Date.now() < deadline) {
    const r = await agent(t).get('/actuator/health/readiness');
    if (r.status === 200) return;
    last = `${r.status} ${r.text}`;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`not ready within ${ms} ms: ${last}`);
}

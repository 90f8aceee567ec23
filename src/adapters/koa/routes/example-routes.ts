/**
 * Example handlers that exercise the request protection for real (mounted when
 * `svc.examples.enabled`: on in dev and test, off in prod).
 */
import { z } from 'zod';
import { CreateExampleRecord } from '../../../application/examples/create-example-record';
import { ListExampleRecords } from '../../../application/examples/list-example-records';
import { VerifySignature } from '../../../application/signing/verify-signature';
import { currentUser, type Guard } from '../guards';
import type { RouteKit } from '../route-kit';
import { route, type RouteDef } from '../routes';
import { exampleRecord, type ExampleRecordSchema, FilteredEcho, SignedEcho, SignedQueryEcho } from '../schemas/operation-schemas';
import { requireSignature } from '../signature-guard';
import type { AppContext } from '../state';
import type { LoginType } from '../../../domain/login-type';

/** The parsed JSON body, or null when none was sent (the body parser leaves `{}` then). */
function parsedBody(ctx: AppContext): unknown {
  const req = ctx.request as { body?: unknown; rawBody?: unknown };
  return typeof req.rawBody === 'string' && req.rawBody !== '' ? req.body : null;
}

/** The query string as parsed, for echoing (a parsed query string has no undefined values; this drops what its type allows). */
function queryOf(ctx: AppContext): Record<string, string | string[]> {
  return Object.fromEntries(Object.entries(ctx.query).flatMap(([name, value]) => (value === undefined ? [] : [[name, value]])));
}

/** `POST /open/echo` and `GET /open/echo` (signed): the parsed JSON body or the query, and the app key that signed it. Both apps. */
export function signedEchoRoutes(kit: RouteKit): RouteDef[] {
  const verifySignature = kit.use(VerifySignature);
  return [
    route({
      method: 'post',
      path: '/open/echo',
      summary: 'Echoes a signed JSON body and the app key that signed it',
      tags: ['examples'],
      guards: [requireSignature(verifySignature)],
      response: SignedEcho,
      handler: async (ctx) => ({ appKey: ctx.state.signedBy ?? null, body: parsedBody(ctx) }),
    }),
    route({
      method: 'get',
      path: '/open/echo',
      summary: 'Echoes the query of a signed GET and the app key that signed it',
      tags: ['examples'],
      guards: [requireSignature(verifySignature)],
      response: SignedQueryEcho,
      handler: async (ctx) => ({ appKey: ctx.state.signedBy ?? null, query: queryOf(ctx) }),
    }),
  ];
}

/** `GET /examples/echo`: the query parameters and the X-Echo header as the handler sees them (after the input filter). */
export function filteredEchoRoutes(): RouteDef[] {
  return [
    route({
      method: 'get',
      path: '/examples/echo',
      summary: 'Echoes the query parameters and the X-Echo header as the handler saw them',
      tags: ['examples'],
      response: FilteredEcho,
      handler: async (ctx) => ({ query: queryOf(ctx), echo: ctx.get('X-Echo') === '' ? null : ctx.get('X-Echo') }),
    }),
  ];
}

const orderBody = z.object({ item: z.string().min(1).max(100), quantity: z.number().int().min(1).max(1000) }).strict();
const paymentBody = z
  .object({ amount: z.number().int().min(1).max(100_000_000), currency: z.string().regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code') })
  .strict();
const noticeBody = z.object({ title: z.string().min(1).max(200) }).strict();

const Order = exampleRecord('Order', orderBody, 'An order', { item: 'book', quantity: 2 });
const Payment = exampleRecord('Payment', paymentBody, 'A payment', { amount: 1999, currency: 'EUR' });
const Notice = exampleRecord('Notice', noticeBody, 'A notice', { title: 'Maintenance on Sunday' });

interface Collection {
  readonly loginType: LoginType;
  readonly path: string;
  readonly collection: string;
  readonly body: z.AnyZodObject;
  /** The stored record's schema (named). */
  readonly record: ExampleRecordSchema;
  readonly guard: Guard;
  readonly what: string;
}

/** A create route (201 with the record) and its list route, for one record collection. */
function collection(kit: RouteKit, o: Collection): RouteDef[] {
  const login = kit.guards.requireLogin(o.loginType);
  const [createRecord, listRecords] = [kit.use(CreateExampleRecord), kit.use(ListExampleRecords)];
  return [
    route({
      method: 'post',
      path: o.path,
      summary: `Creates ${o.what} (${String(o.guard.doc.idempotency)} duplicate-submission protection)`,
      tags: ['examples'],
      guards: [login, o.guard],
      body: o.body,
      successStatus: 201,
      response: o.record,
      raises: CreateExampleRecord.reasons,
      handler: async (ctx, { body }) => createRecord.execute({ collection: o.collection, ownerId: currentUser(ctx).userId, data: body }),
    }),
    route({
      method: 'get',
      path: o.path,
      summary: `Lists the caller's ${o.collection}, oldest first`,
      tags: ['examples'],
      guards: [login],
      response: z.array(o.record),
      raises: ListExampleRecords.reasons,
      handler: async (ctx) => listRecords.execute({ collection: o.collection, ownerId: currentUser(ctx).userId }),
    }),
  ];
}

/** Web: orders (TOKEN mode) and payments (HEADER mode), login "web". */
export function webExampleRoutes(kit: RouteKit): RouteDef[] {
  return [
    ...signedEchoRoutes(kit),
    ...filteredEchoRoutes(),
    ...collection(kit, {
      loginType: 'web',
      path: '/orders',
      collection: 'orders',
      body: orderBody,
      record: Order,
      guard: kit.idempotent({ mode: 'TOKEN' }),
      what: 'an order',
    }),
    ...collection(kit, {
      loginType: 'web',
      path: '/payments',
      collection: 'payments',
      body: paymentBody,
      record: Payment,
      guard: kit.idempotent({ mode: 'HEADER' }),
      what: 'a payment',
    }),
  ];
}

/** Admin: notices (PARAM mode, 5 s), login "admin". */
export function adminExampleRoutes(kit: RouteKit): RouteDef[] {
  return [
    ...signedEchoRoutes(kit),
    ...filteredEchoRoutes(),
    ...collection(kit, {
      loginType: 'admin',
      path: '/examples/notices',
      collection: 'notices',
      body: noticeBody,
      record: Notice,
      guard: kit.idempotent({ mode: 'PARAM', ttlSeconds: 5 }),
      what: 'a notice',
    }),
  ];
}

/**
 * The success payloads of the operational routes (actuator, API docs) and the example routes:
 * named zod schemas with a description and an example each, like account-schemas.ts.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

const HealthStatus = z.enum(['UP', 'DOWN']);

export const HealthReport = z
  .object({
    status: HealthStatus,
    components: z
      .record(
        z.object({
          status: HealthStatus,
          details: z.record(z.unknown()).optional().openapi({ description: 'Component details (kind, latency, the error when DOWN)' }),
        }),
      )
      .optional()
      .openapi({ description: 'Each component checked; shown only where svc.actuator.show-details is on' }),
  })
  .openapi('HealthReport', {
    description: 'UP when every component checked is UP; the HTTP status is 503 when DOWN',
    example: { status: 'UP', components: { store: { status: 'UP', details: { kind: 'redis', latencyMs: 0.42 } } } },
  });

export const AppInfo = z
  .object({
    app: z.object({
      name: z.string(),
      version: z.string(),
      description: z.string().optional(),
      component: z.enum(['admin', 'web']).optional(),
    }),
    profile: z.string().optional(),
    startTime: z.string().datetime().optional(),
    node: z.string().optional(),
  })
  .openapi('AppInfo', {
    description: 'Name and version; outside prod also the profile, start time and Node version',
    example: {
      app: { name: 'authguard', version: '0.1.0', description: 'Authentication service', component: 'admin' },
      profile: 'dev',
      startTime: '2025-01-31T14:05:09.000Z',
      node: 'v20.12.0',
    },
  });

export const PrometheusText = z.string().openapi('PrometheusText', {
  description: 'Metrics in the Prometheus text exposition format 0.0.4',
  example:
    '# HELP http_requests_total Requests by method, route and status\n# TYPE ' +
    'http_requests_total counter\nhttp_requests_total{method="GET",route="/auth/me",status="200"} 3\n',
});

export const OpenApiDocument = z
  .object({
    openapi: z.string().regex(/^3\.1\.\d+$/),
    info: z.object({ title: z.string(), version: z.string() }).passthrough(),
    paths: z.record(z.unknown()),
  })
  .passthrough()
  .openapi('OpenApiDocument', {
    description: 'This OpenAPI 3.1 description',
    example: { openapi: '3.1.0', info: { title: 'authguard admin API', version: '0.1.0' }, paths: {} },
  });

export const HtmlPage = z
  .string()
  .openapi('HtmlPage', { description: 'An HTML page', example: '<!doctype html>\n<html lang="en">...</html>\n' });
export const JavaScriptSource = z
  .string()
  .openapi('JavaScriptSource', { description: 'A script', example: '(function () { "use strict"; })();\n' });
export const CssSource = z
  .string()
  .openapi('CssSource', { description: 'A style sheet', example: '.swagger-ui { font-family: sans-serif; }\n' });
export const PngImage = z.string().openapi('PngImage', { description: 'A PNG image (binary)', format: 'binary', example: '' });

const JsonValue = z.unknown().openapi({ description: 'Any JSON value' });

export const SignedEcho = z
  .object({
    appKey: z.string().nullable().openapi({ description: 'The app key that signed the request (null with signing disabled)' }),
    body: JsonValue.nullable(),
  })
  .openapi('SignedEcho', {
    description: 'The signed JSON body as parsed (null when none was sent) and the app key that signed it',
    example: { appKey: 'demo-app', body: { hello: 'world' } },
  });

const QueryEchoed = z
  .record(z.union([z.string(), z.array(z.string())]))
  .openapi({ description: 'The query parameters as parsed (repeated names become arrays)' });

export const SignedQueryEcho = z.object({ appKey: z.string().nullable(), query: QueryEchoed }).openapi('SignedQueryEcho', {
  description: 'The query of a signed GET and the app key that signed it',
  example: { appKey: 'demo-app', query: { q: 'shoes' } },
});

export const FilteredEcho = z
  .object({
    query: QueryEchoed,
    echo: z.string().nullable().openapi({ description: 'The X-Echo header after the input filter; null when not sent' }),
  })
  .openapi('FilteredEcho', {
    description: 'The query parameters and the X-Echo header as the handler saw them (after the input filter)',
    example: { query: { q: '&lt;b&gt;' }, echo: null },
  });

/** What a route answering with an example record may return: any stored record (its `data` is the body it was created from). */
export type ExampleRecordSchema = z.ZodType<
  unknown,
  z.ZodTypeDef,
  { id: string; ownerId: string; createdAt: string; data: Readonly<Record<string, unknown>> }
>;

/** A stored example record (order, payment, notice) whose `data` is the body it was created from. */
export function exampleRecord<T extends z.AnyZodObject>(name: string, data: T, what: string, example: z.infer<T>) {
  return z.object({ id: z.string().uuid(), ownerId: z.string(), createdAt: z.string().datetime(), data }).openapi(name, {
    description: `${what}, as created (data is the request body)`,
    example: { id: '1b4e28ba-2fa1-4d2b-8e3f-6c7d8e9f0a1b', ownerId: '42', createdAt: '2025-01-31T14:05:09.000Z', data: example } as never,
  });
}

export const DevMailboxMessage = z
  .object({
    id: z.string().uuid().openapi({ description: 'The message in the mailbox (not a secret)' }),
    from: z.string().openapi({ description: 'The sender (svc.mail.from)' }),
    to: z.string().openapi({ description: 'The recipient' }),
    subject: z.string(),
    text: z.string().openapi({ description: 'The plain-text body, whole (the code or the link it carries included)' }),
    html: z.string().optional().openapi({ description: 'The HTML alternative, when the message has one' }),
    sentAt: z.string().datetime().openapi({ description: 'When it was handed to the mailbox (ISO 8601, UTC)' }),
  })
  .openapi('DevMailboxMessage', {
    description: 'A message the embedded dev mailbox kept instead of sending it (no svc.mail.smtp-url; dev and test only)',
    example: {
      id: '1b4e28ba-2fa1-4d2b-8e3f-6c7d8e9f0a1b',
      from: 'authguard <no-reply@localhost>',
      to: 'alice@example.com',
      subject: 'Verify your e-mail',
      text: 'Your verification code is 482913. It expires in 15 minutes.',
      sentAt: '2025-01-31T14:05:09.000Z',
    },
  });

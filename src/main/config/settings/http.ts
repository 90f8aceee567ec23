/** The HTTP servers: ports, proxies, problems, limits, actuator, OpenAPI, CORS, timeouts. */
import { z } from 'zod';
import { setting } from '../setting';
import { actuatorExposure, bool, cidrList, emailOrEmpty, httpUrlOrEmpty, int, originList, port, profileBool, str } from '../values';

export const HTTP_KEYS = {
  'svc.admin.port': setting({
    schema: port,
    default: 8080,
    doc: 'admin app port',
  }),
  'svc.web.port': setting({
    schema: port,
    default: 8081,
    doc: 'web app port',
  }),
  'svc.trusted-proxies': setting({
    schema: cidrList,
    default: [],
    doc:
      'addresses/CIDRs whose `X-Forwarded-For` is believed; a catch-all (`0.0.0.0/0`, `::/0`, or ' +
      'ranges covering a whole family) refuses to start in prod and warns in dev/test; in prod a ' +
      'range wider than `/8` (IPv4) or `/32` (IPv6), such as `0.0.0.0/1` or `2000::/3`, refuses ' +
      'to start too unless `svc.trusted-proxies-allow-wide=true`',
  }),
  'svc.trusted-proxies-allow-wide': setting({
    schema: bool,
    default: false,
    doc:
      'prod: accept trusted-proxy ranges wider than `/8` (IPv4) or `/32` (IPv6); set it only when ' +
      'such a range holds nothing but your proxies (a catch-all is refused whatever it says)',
  }),
  'svc.time-zone': setting({
    schema: str,
    default: '',
    doc: 'IANA zone of formatted dates (`expires`)',
    defaultText: "server's zone",
  }),
  'svc.problem-base-uri': setting({
    schema: z.string().url('expected an absolute URI'),
    default: 'https://authguard.example/problems/',
    doc:
      "base of problem `type` URIs; operators set it to the web app's public URL + `/problems/`, " +
      'where `GET /problems/<reason>` serves the page',
    defaultText: '`https://authguard.example/problems/` (dev/test: `http://localhost:8081/problems/`)',
  }),
  'svc.body-limit-bytes': setting({
    schema: int(1024, 50 * 1024 * 1024),
    default: 1024 * 1024,
    doc: 'largest accepted JSON body (413 beyond)',
  }),
  'svc.http.max-query-params': setting({
    schema: int(1, 100000),
    default: 1000,
    doc:
      'most query parameters a request may carry (`&`-separated pairs of the raw query string); ' +
      'more answer 400 `too-many-query-params` instead of being cut silently',
  }),
  'svc.shutdown-grace-ms': setting({
    schema: int(0, 120000),
    default: 10000,
    doc: 'in-flight requests get this long on SIGTERM',
  }),
  'svc.actuator.exposure': setting({
    schema: actuatorExposure,
    default: undefined,
    doc: 'actuator endpoints mounted: `health`, `info`, `prometheus` or `*`; others answer 404',
    defaultText: 'all (prod: `health,info`)',
  }),
  'svc.actuator.show-details': setting({
    schema: profileBool,
    default: undefined,
    doc: 'health answers list components and details, or the status only',
    defaultText: '`true` (prod: `false`)',
  }),
  'svc.openapi.enabled': setting({
    schema: profileBool,
    default: undefined,
    doc: '`/v3/api-docs` (OpenAPI 3.1) and `/swagger-ui`; 404 when off',
    defaultText: '`true` (prod: `false`)',
  }),
  'svc.openapi.contact-name': setting({
    schema: z.string().trim().min(1, 'must not be empty'),
    default: 'authguard operators',
    doc: '`info.contact.name` of both API documents: who integrators reach about this deployment',
  }),
  'svc.openapi.contact-url': setting({
    schema: httpUrlOrEmpty,
    default: '',
    doc: '`info.contact.url` (an http(s) URL); left out when not set',
  }),
  'svc.openapi.contact-email': setting({
    schema: emailOrEmpty,
    default: '',
    doc: '`info.contact.email`; left out when not set',
  }),
  'svc.try-it.enabled': setting({
    schema: profileBool,
    default: undefined,
    doc:
      '`GET /` on the admin app serves the try-it login page (getConfig, captcha, encrypt in the browser, login with its second step, ' +
      'me, refresh, logout, passkeys, authenticator-app enrolment)',
    defaultText: '`true` in dev, else `false`',
  }),
  'svc.cors.allowed-origins': setting({
    schema: originList,
    default: [],
    doc: 'browser origins allowed by CORS (`scheme://host[:port]`, or `*`); none = no CORS headers',
    defaultText: '(none; dev: `http://localhost:8848`)',
  }),
  'svc.server.headers-timeout-ms': setting({
    schema: int(1000, 600000),
    default: 15000,
    doc: 'a client must send its request headers within this (slow-client protection)',
  }),
  'svc.server.request-timeout-ms': setting({
    schema: int(1000, 600000),
    default: 30000,
    doc: 'a whole request must arrive within this',
  }),
  'svc.server.keep-alive-timeout-ms': setting({
    schema: int(100, 600000),
    default: 5000,
    doc: 'idle keep-alive connections are closed after this',
  }),
};

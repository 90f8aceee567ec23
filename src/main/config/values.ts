/** Value parsers that accept YAML natives or environment strings (lists comma-separated, maps as JSON). */
import { z } from 'zod';
import { parseCidrList } from '../../adapters/koa/client-ip';
import { parseSchemeList, type SignScheme } from '../../domain/signing';

export const bool = z.preprocess(
  (v) => {
    if (typeof v === 'string') {
      const s = v.trim().toLowerCase();
      if (s === 'true') return true;
      if (s === 'false') return false;
    }
    return v;
  },
  z.boolean({ message: 'expected true or false' }),
);

export const int = (min: number, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v),
    z.number({ message: 'expected an integer' }).int('expected an integer').min(min).max(max),
  );

/** -1 (off / never) or a positive number of seconds. */
export const secondsOrOff = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v),
  z
    .number({ message: 'expected an integer' })
    .int('expected an integer')
    .refine((n) => n === -1 || n > 0, 'expected -1 or a positive number of seconds'),
);

export const str = z.string();
export const nonEmpty = z.string().min(1, 'must not be empty');

export const list = z.preprocess((v) => {
  if (typeof v === 'string')
    return v
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  return v;
}, z.array(z.string()));

export const stringMap = z.preprocess(
  (v) => {
    if (typeof v === 'string') {
      if (v.trim() === '') return {};
      try {
        return JSON.parse(v) as unknown;
      } catch {
        return v; // fails the object check below with a clear message
      }
    }
    return v ?? {};
  },
  z.record(z.string(), z.string(), { message: 'expected a JSON object of {"<APP_KEY>":"<APP_SECRET>"}' }),
);

export const port = int(0, 65535);

/** `host:port` or `[ipv6]:port`, port 1..65535; null when malformed. */
export function parseHostPort(entry: string): { host: string; port: number } | null {
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([^\s:[\]]+)):(\d{1,5})$/.exec(entry.trim());
  if (m === null) return null;
  const port = Number(m[3]);
  if (port < 1 || port > 65535) return null;
  return { host: (m[1] ?? m[2]) as string, port };
}

/** A comma list of `host:port` (Sentinel addresses). */
export const hostPortList = list.transform((entries, ctx) => {
  const out: Array<{ host: string; port: number }> = [];
  for (const e of entries) {
    const hp = parseHostPort(e);
    if (hp === null) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `"${e}" is not host:port (port 1..65535; IPv6 as [addr]:port)` });
    else out.push(hp);
  }
  return out;
});

/** An http(s) URL, or '' for none. */
export const httpUrlOrEmpty = z
  .string()
  .trim()
  .refine((v) => {
    if (v === '') return true;
    try {
      const u = new URL(v);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'expected an http(s) URL or nothing');

/** An e-mail address (local@domain), or '' for none. */
export const emailOrEmpty = z
  .string()
  .trim()
  .refine((v) => v === '' || /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/.test(v), 'expected an e-mail address or nothing');

export const cidrList = list.superRefine((entries, ctx) => {
  try {
    parseCidrList(entries as string[]);
  } catch (e) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: (e as Error).message });
  }
});

/** A boolean whose default depends on the profile (undefined here, resolved in build()). */
export const profileBool = bool.optional();

export const actuatorExposure = list
  .pipe(z.array(z.enum(['health', 'info', 'prometheus', '*'], { message: 'expected health, info, prometheus or *' })))
  .optional();

export const originList = list.superRefine((entries, ctx) => {
  for (const e of entries as string[]) {
    if (e === '*') continue;
    let ok = false;
    try {
      const u = new URL(e);
      ok = (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === e.replace(/\/$/, '');
    } catch {
      ok = false;
    }
    if (!ok) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `"${e}" is not an origin (scheme://host[:port]) or *` });
  }
});

/**
 * The exact origins (`scheme://host[:port]`, no `*`) a WebAuthn answer may come from: at least one, each written as
 * a browser reports it (`HTTPS://App.Example.com/` becomes `https://app.example.com`).
 */
export const webauthnOrigins = list.transform((entries, ctx) => {
  if (entries.length === 0) ctx.addIssue({ code: z.ZodIssueCode.custom, message: "expected at least one origin (the app's front end)" });
  return entries.map((e) => {
    try {
      const u = new URL(e);
      if ((u.protocol === 'http:' || u.protocol === 'https:') && u.origin.toLowerCase() === e.replace(/\/$/, '').toLowerCase())
        return u.origin;
    } catch {
      // reported below
    }
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: `"${e}" is not an exact origin (scheme://host[:port])` });
    return e;
  });
});

/** A map from YAML, or from a JSON object in the environment ('' is {}). */
const jsonObject = (v: unknown): unknown => {
  if (typeof v !== 'string') return v ?? {};
  if (v.trim() === '') return {};
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v; // fails the object check with the key's own message
  }
};

/** App key -> signing schemes: `v1`, `rfc9421` or `v1,rfc9421`; an unknown scheme names its app. */
export const signSchemeMap = z.preprocess(
  jsonObject,
  z
    .record(z.string(), z.string(), { message: 'expected a JSON object of {"<APP_KEY>":"v1" | "rfc9421" | "v1,rfc9421"}' })
    .transform((m, ctx) => {
      const out: Record<string, SignScheme[]> = {};
      for (const [app, text] of Object.entries(m)) {
        const parsed = parseSchemeList(text);
        if ('unknown' in parsed) {
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            message: `app "${app}": unknown signing scheme "${parsed.unknown}" (expected v1, rfc9421 or v1,rfc9421)`,
          });
        } else out[app] = parsed.schemes;
      }
      return out;
    }),
);

/** Koa app (admin, web) -> the public base URL its signed requests are addressed to (no query, no fragment). */
export const publicUrlMap = z.preprocess(
  jsonObject,
  z
    .record(z.string(), z.string(), { message: 'expected a JSON object of {"admin" | "web":"https://host[:port][/prefix]"}' })
    .transform((m, ctx) => {
      const out: Record<string, string> = {};
      for (const [app, text] of Object.entries(m)) {
        if (app !== 'admin' && app !== 'web')
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: `"${app}" is not an app (expected admin or web)` });
        let url: URL | null = null;
        try {
          url = new URL(text);
        } catch {
          url = null;
        }
        const ok =
          url !== null &&
          (url.protocol === 'http:' || url.protocol === 'https:') &&
          url.search === '' &&
          url.hash === '' &&
          url.username === '' &&
          !text.includes('?') &&
          !text.includes('#');
        if (!ok)
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${app}: "${text}" is not an http(s) base URL without query or fragment` });
        else out[app] = (url as URL).href.replace(/\/+$/, '');
      }
      return out;
    }),
);

/** A cookie Path: `/` or `/segment/...`, of URL path characters only (no `;`, blank or control character). */
export const cookiePath = z
  .string()
  .regex(/^\/[A-Za-z0-9._~!$&'()*+,=:@%/-]*$/, 'must be a URL path starting with / (e.g. / or /api/auth), without ; or blanks');

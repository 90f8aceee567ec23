/**
 * Reading answers through the generated types. Where the document describes a payload, the generated type is
 * used as is; where it does not (the generator gives `unknown`), the payload is narrowed by a small run-time check
 * of the fields this client uses. The check runs in both cases, so a server that answers something else than its
 * document says fails loudly here instead of somewhere downstream.
 */

/** A run-time check that narrows an unknown value to T. */
export type Check<T> = (value: unknown) => value is T;

/**
 * The generated type G when the document describes the payload; the checked shape F while G is `unknown`.
 * (`unknown extends G` only holds for an undescribed payload.)
 */
export type Described<G, F> = unknown extends G ? F : NonNullable<G>;

export const isString: Check<string> = (v): v is string => typeof v === 'string';
export const isNumber: Check<number> = (v): v is number => typeof v === 'number' && Number.isFinite(v);
export const isBoolean: Check<boolean> = (v): v is boolean => typeof v === 'boolean';
export const isRecord: Check<Record<string, unknown>> = (v): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function arrayOf<T>(item: Check<T>): Check<T[]> {
  return (v): v is T[] => Array.isArray(v) && v.every(item);
}

export function oneOf<const T extends readonly string[]>(...values: T): Check<T[number]> {
  return (v): v is T[number] => typeof v === 'string' && values.includes(v);
}

/** An object with at least these fields, each passing its check (other fields are allowed). */
export function shape<T extends object>(fields: { readonly [K in keyof T]-?: Check<T[K]> }): Check<T> {
  return (v): v is T => isRecord(v) && Object.entries(fields).every(([k, check]) => (check as Check<unknown>)(v[k]));
}

/** An answer the client did not expect: the HTTP status and the app's error code (a number on admin, a reason on web). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | number | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The error of a failed call, in the app's own format (admin envelope `{code, message}`, web problem `{code, detail}`). */
export function apiError(response: Response, body: unknown): ApiError {
  const code = isRecord(body) && (isString(body.code) || isNumber(body.code)) ? body.code : undefined;
  const text = isRecord(body) ? [body.detail, body.message].find(isString) : undefined;
  return new ApiError(response.status, code, `${response.status} ${String(code ?? '')}: ${text ?? response.statusText}`.trim());
}

/** The payload read through its generated type G, checked against F (the fields this client relies on). */
export function described<G, F>(value: G, check: Check<F>, what: string): Described<G, F> {
  if (!check(value)) throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
  return value as unknown as Described<G, F>;
}

/** The outcome of an openapi-fetch call: its data on success, its error otherwise. */
export interface Outcome<D, E> {
  readonly data?: D;
  readonly error?: E;
  readonly response: Response;
}

/** The data of a successful call answered with `status`; anything else throws an ApiError. */
export function expectSuccess<D, E>(res: Outcome<D, E>, status = 200): D {
  if (res.error !== undefined || res.response.status !== status) throw apiError(res.response, res.error ?? res.data);
  return res.data as D;
}

/**
 * A login answer that is a finished login: an account with a second factor answers a challenge
 * instead (`mfaRequired`), which this example client does not take further (POST /auth/mfa/verify).
 */
export function finished<T>(data: T): Exclude<T, { mfaRequired: true }> {
  if (isRecord(data) && data.mfaRequired === true) {
    throw new Error('this account has a second factor: the login continues at POST /auth/mfa/verify');
  }
  return data as Exclude<T, { mfaRequired: true }>;
}

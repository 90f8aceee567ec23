/** What a signature can be checked against: the request as the server received it. */
export interface SignedRequest {
  /** The request method as received (`POST`). */
  readonly method: string;
  /**
   * The absolute target URI the client addressed, as the edge reconstructs it (public base URL or
   * scheme + Host, then the request target as received); '' when it cannot be reconstructed.
   */
  readonly targetUri: string;
  /** Field values by lower-case field name, each occurrence in the order received. */
  readonly headers: ReadonlyMap<string, readonly string[]>;
  /** The request body exactly as received ("" or an empty buffer when there is none). */
  readonly body: string | Buffer;
}

/** One field's value, its occurrences joined by ", " (RFC 9110 §5.3); undefined when absent or empty. */
export function fieldValue(request: SignedRequest, name: string): string | undefined {
  const values = request.headers.get(name);
  if (values === undefined || values.length === 0) return undefined;
  const joined = values.map((v) => v.trim()).join(', ');
  return joined === '' ? undefined : joined;
}

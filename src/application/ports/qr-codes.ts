/** QR codes drawn as images (the `otpauth://` URI an authenticator app scans at enrolment). */
export interface QrCodes {
  /** A standalone SVG document (`<svg ...>...</svg>`) encoding `text`. */
  svg(text: string): Promise<string>;
}

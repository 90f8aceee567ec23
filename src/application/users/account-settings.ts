/** The configuration the account-lifecycle use cases read (bound per app by the composition root). */
export interface AccountSettings {
  /** A new password may not be any of the last N, the current one included; 0 = no check. */
  readonly passwordHistory: number;
  readonly requireEmail: boolean;
  readonly requireVerifiedEmail: boolean;
  readonly verifyCodeTtlSeconds: number;
  readonly resetTokenTtlSeconds: number;
  /** The front end's reset page; the message links to it with `token=...` appended. */
  readonly resetLink: string;
  /** Longest wait for one message to be sent. */
  readonly mailTimeoutMs: number;
}

/** The configuration the second-factor use cases read (bound per app by the composition root). */
export interface MfaSettings {
  /** Roles whose holders must have a second factor. */
  readonly requiredRoles: readonly string[];
  readonly challengeTtlSeconds: number;
}

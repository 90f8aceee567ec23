/** BCrypt hashing. Implementations must not block the event loop (hash and verify take ~100 ms). */
export interface PasswordHasher {
  hash(password: string, cost: number): Promise<string>;
  /** False for a wrong password or a malformed hash; never throws for bad input. */
  verify(password: string, hash: string): Promise<boolean>;
}

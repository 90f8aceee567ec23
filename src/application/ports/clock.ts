/** Time as the use cases see it (ms since epoch). A port so expiry is testable without waiting. */
export interface Clock {
  now(): number;
}

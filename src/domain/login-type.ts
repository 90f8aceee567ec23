/** The two login types: each has its own sessions, token header policy and user directory. */
export const LOGIN_TYPES = ['admin', 'web'] as const;
export type LoginType = (typeof LOGIN_TYPES)[number];

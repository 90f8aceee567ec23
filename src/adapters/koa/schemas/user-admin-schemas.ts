/**
 * The success payloads of the complete user administration (edit, delete, kickout of an account):
 * named zod schemas with a description and an example, like account-schemas.ts.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

export const UserProfile = z
  .object({
    userId: z.string(),
    username: z.string(),
    nickname: z.string(),
    avatar: z.string(),
    email: z.string().nullable(),
    emailVerified: z.boolean().openapi({ description: 'False after a change to another address; kept when the same one is respelt' }),
    phone: z.string().nullable(),
    sessionsUpdated: z.number().int().min(0).openapi({ description: 'Live sessions whose snapshot shows the new nickname and avatar' }),
  })
  .openapi('UserProfile', {
    description: "The account's profile as it now is",
    example: {
      userId: '7',
      username: 'ops.lee',
      nickname: 'Lee Ops',
      avatar: 'https://cdn.example.com/avatars/lee.png',
      email: 'lee@example.com',
      emailVerified: false,
      phone: '+44 20 7946 0958',
      sessionsUpdated: 1,
    },
  });

export const UserDeleted = z
  .object({
    userId: z.string(),
    username: z.string(),
    deleted: z.literal(true),
    sessionsEnded: z.number().int().min(0).openapi({ description: 'Live sessions kicked out (their tokens answer token-kicked-out)' }),
  })
  .openapi('UserDeleted', {
    description: 'The account is gone with its roles, second factors, refresh tokens and device cookies; its id is never reused',
    example: { userId: '7', username: 'ops.lee', deleted: true, sessionsEnded: 2 },
  });

export const UserKickedOut = z
  .object({
    userId: z.string(),
    username: z.string(),
    sessionsEnded: z.number().int().min(0).openapi({ description: 'Live sessions kicked out' }),
  })
  .openapi('UserKickedOut', {
    description: 'Every login of the account ended (sessions, refresh tokens, device cookies); the user may log in again',
    example: { userId: '7', username: 'ops.lee', sessionsEnded: 3 },
  });

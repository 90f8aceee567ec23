/** The answer of an administrator's reset of an account's second factors (`DELETE /system/user/{id}/mfa`). */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

export const MfaReset = z
  .object({
    userId: z.string(),
    username: z.string(),
    totpRemoved: z.boolean().openapi({ description: 'A TOTP factor was active (its recovery codes went with it)' }),
    passkeysRemoved: z.number().int().min(0),
    sessionsEnded: z.number().int().min(0),
  })
  .openapi('MfaReset', {
    description:
      "The account's second factors are removed (TOTP, recovery codes, passkeys) and its logins ended; its next login takes " +
      'the password alone (restricted to enrolling a factor where a role requires one)',
    example: { userId: '7', username: 'ops.lee', totpRemoved: true, passkeysRemoved: 2, sessionsEnded: 1 },
  });

/** The request and success payloads of the second-factor routes (TOTP enrolment), named for the API description. */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

const SECRET_EXAMPLE = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

export const TotpSetup = z
  .object({
    secret: z
      .string()
      .regex(/^[A-Z2-7]+$/)
      .openapi({ description: 'The new secret in base32 (RFC 4648, no padding), for typing into an authenticator app by hand' }),
    otpauthUrl: z
      .string()
      .regex(/^otpauth:\/\/totp\//)
      .openapi({
        description:
          'The Key Uri Format URI an authenticator app reads (issuer svc.webauthn.rp-name, label the username; SHA-1, 6 digits, 30 s)',
      }),
    qrSvg: z
      .string()
      .regex(/^<svg /)
      .openapi({ description: 'The URI as a QR code, a standalone SVG document (show it as an image; it is the secret)' }),
  })
  .openapi('TotpSetup', {
    description:
      'A pending TOTP secret, shown this once: scan the QR code (or type the secret), then confirm with a code within 10 minutes. ' +
      'Not active until confirmed',
    example: {
      secret: SECRET_EXAMPLE,
      otpauthUrl: `otpauth://totp/authguard:admin?issuer=authguard&secret=${SECRET_EXAMPLE}&algorithm=SHA1&digits=6&period=30`,
      qrSvg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 37 37" shape-rendering="crispEdges"><path d="M2 2h7v7H2z"/></svg>',
    },
  });

export const ConfirmTotpBody = z
  .object({
    code: z.string().min(1).max(16).openapi({ description: 'The code the authenticator app shows now (6 digits; spaces are ignored)' }),
  })
  .openapi('ConfirmTotpBody', { description: 'A current code of the pending secret', example: { code: '492039' } });

export const TotpRecoveryCodes = z
  .object({
    recoveryCodes: z
      .array(z.string().regex(/^[0-9a-z]{4}(-[0-9a-z]{4}){3}$/))
      .length(10)
      .openapi({
        description:
          'Ten single-use recovery codes, shown this once (only their hashes are kept): each stands in for a code once when the ' +
          'authenticator is lost. Case, spaces and dashes do not matter when typing them',
      }),
  })
  .openapi('TotpRecoveryCodes', {
    description: 'The TOTP factor is active; keep these recovery codes somewhere safe',
    example: {
      recoveryCodes: [
        '7k2m-x9qd-4hc1-bn8t',
        'q0fz-3r6w-tp5e-k1ma',
        'd8xs-v2jn-6cgy-0h4r',
        'mz3b-9tqa-x7k5-2fwe',
        'c5hr-1ny8-jd0v-q6tk',
        'w4ep-8mx2-zb7c-3sgn',
        'h9ka-5qv1-e3rd-y0tz',
        'n2fx-7cw6-bm4s-j8pq',
        'r1tg-0zk9-5hvn-a3dx',
        'y6mc-4je8-q2wb-t7kf',
      ],
    },
  });

/**
 * A user's own session list (`GET /auth/sessions`, `GET /user/sessions`): its query (`page`, `size`, named and bounded as
 * the online list's) and its answers. With `page` or `size` the answer is a page object like the online list's
 * (`list`, exact `total`, `page`, `size`); without either, the bare array of earlier releases, cut at the first
 * MAX_PAGE_SIZE sessions (`X-Total-Count` tells how many there are): docs/integration-admin.md#your-own-sessions.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../../../application/auth/list-sessions';
import { MEMBER_SESSION_EXAMPLE, MemberSession, ONLINE_SESSION_EXAMPLE, OwnSession } from './account-schemas';

extendZodWithOpenApi(z);

/** Sessions a page holds without `size` (when `page` alone is given). */
export const DEFAULT_OWN_PAGE_SIZE = 20;

export const OwnSessionsQuery = z.object({
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(10000)
    .optional()
    .openapi({ description: 'Page number, from 1. With page or size the answer is a page object; without either, the bare array' }),
  size: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .optional()
    .openapi({ description: `Sessions per page (1-${MAX_PAGE_SIZE}, default ${DEFAULT_OWN_PAGE_SIZE} when page is given)` }),
});

/** The page asked for: `page` and `size` as given (size 20 by default), or without either the legacy array's (the first 500). */
export function ownPage(query: { page?: number | undefined; size?: number | undefined }): { page: number; size: number } {
  if (query.page === undefined && query.size === undefined) return { page: 1, size: MAX_PAGE_SIZE };
  return { page: query.page ?? 1, size: query.size ?? DEFAULT_OWN_PAGE_SIZE };
}

const PAGE_FIELDS = {
  total: z.number().int().min(0).openapi({ description: 'How many live sessions you have (exact)' }),
  page: z.number().int().min(1),
  size: z.number().int().min(1),
};

const LEGACY = `Without page and size: the bare array of earlier releases, your first ${MAX_PAGE_SIZE} sessions (X-Total-Count: how many)`;

export const OwnSessionPage = z.object({ list: z.array(OwnSession), ...PAGE_FIELDS }).openapi('OwnSessionPage', {
  description: 'One page of your live admin sessions, oldest first',
  example: { list: [{ ...ONLINE_SESSION_EXAMPLE, current: true }], total: 1, page: 1, size: 20 },
});

export const OwnSessionsAnswer = z.union([OwnSessionPage, z.array(OwnSession).openapi({ description: LEGACY })]);

export const MemberSessionPage = z.object({ list: z.array(MemberSession), ...PAGE_FIELDS }).openapi('MemberSessionPage', {
  description: 'One page of the member\'s live sessions ("devices"), oldest first',
  example: {
    list: [MEMBER_SESSION_EXAMPLE],
    total: 1,
    page: 1,
    size: 20,
  },
});

export const MemberSessionsAnswer = z.union([MemberSessionPage, z.array(MemberSession).openapi({ description: LEGACY })]);

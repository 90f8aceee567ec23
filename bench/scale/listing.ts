/**
 * GET /monitor/online at the current size: one client, keep-alive, the requests below one after
 * the other, interleaved (`samples` of each after 5 unmeasured rounds), as the operator (admin,
 * `*:*:*`). p50 / p99 per request, and the event loop's longest delay during that request's samples.
 *   - GET /auth/me: the authenticated baseline;
 *   - the first page (`page=1&size=20`);
 *   - the deepest page the route allows (`page × size` = 10,000, the documented maximum);
 *   - the viewer's sessions (`username=viewer`: 20 of the filler's);
 *   - one client address (`ip=`RARE_IP: a few of the filler's; a bounded scan of the index).
 */
import { RARE_IP } from './fill';
import { Client, LoopDelay, percentile, round } from './http';

export const LIST_REQUESTS = {
  me: '/auth/me',
  firstPage: '/monitor/online?page=1&size=20',
  deepPage: '/monitor/online?page=500&size=20',
  byUsername: '/monitor/online?username=viewer&size=20',
  byIp: `/monitor/online?ip=${RARE_IP}&size=20`,
} as const;
export type ListRequest = keyof typeof LIST_REQUESTS;

export interface ListFigure {
  readonly p50: number;
  readonly p99: number;
  /** Longest event-loop delay during this request's samples (ms). */
  readonly maxLoopDelay: number;
}

export async function measureListing(
  port: number,
  token: string,
  samples: number,
  loop: LoopDelay,
): Promise<Record<ListRequest, ListFigure>> {
  const client = new Client(port);
  const names = Object.keys(LIST_REQUESTS) as ListRequest[];
  const times = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<ListRequest, number[]>;
  const stalls = Object.fromEntries(names.map((n) => [n, 0])) as Record<ListRequest, number>;
  for (let i = 0; i < 5; i++) for (const n of names) await client.expect(200, 'GET', LIST_REQUESTS[n], { token });
  for (let i = 0; i < samples; i++)
    for (const n of names) {
      const { value, maxDelayMs } = await loop.during(() => client.expect(200, 'GET', LIST_REQUESTS[n], { token }));
      times[n].push(value.answer.ms);
      stalls[n] = Math.max(stalls[n], maxDelayMs);
    }
  client.close();
  const out = {} as Record<ListRequest, ListFigure>;
  for (const n of names)
    out[n] = { p50: round(percentile(times[n], 0.5), 2), p99: round(percentile(times[n], 0.99), 2), maxLoopDelay: round(stalls[n]) };
  return out;
}

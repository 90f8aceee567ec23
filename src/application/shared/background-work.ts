/**
 * Work a request starts but does not wait for (the lookup, token and message of a password-reset
 * request, so a known and an unknown address answer alike and as fast). A task starts on a later
 * turn of the event loop, after the request that started it has been answered; its failure is
 * logged (what it was and the error's message, never its input) and never reaches the caller, so
 * no rejection goes unhandled.
 */
import { inject, injectable } from 'inversify';
import type { Logger } from '../ports/logger';
import { TOKENS } from '../tokens';

@injectable()
export class BackgroundWork {
  private readonly pending = new Set<Promise<void>>();

  constructor(@inject(TOKENS.Logger) private readonly log: Logger) {}

  /** Schedules `work` (`what` names it in the log); returns at once. */
  run(what: string, work: () => Promise<void>): void {
    const task: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((e: unknown) => this.log.error({ what, err: e instanceof Error ? e.message : String(e) }, 'background work failed'))
      .finally(() => this.pending.delete(task));
    this.pending.add(task);
  }

  /** Resolves once every task started so far (and those they started) has finished: tests, the bench, a shutdown. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}

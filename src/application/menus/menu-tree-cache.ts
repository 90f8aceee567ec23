/**
 * The menu tree as `GET /auth/routes` reads it: kept in memory, read again when older than svc.menus.cache-seconds
 * (another instance, or the database, may have changed it) and at once after a change made through this instance
 * (`invalidate`, called by the menu and role use cases). The routes of one set of permissions are computed once per
 * tree and kept with their serialised answer and its ETag (a SHA-256 of it), so a request costs a map lookup: most
 * sessions share a few permission sets (at most `MAX_PERMISSION_SETS` are kept; past that they are all forgotten).
 */
import { createHash } from 'node:crypto';
import { inject, injectable } from 'inversify';
import type { Menu } from '../../domain/menu';
import { routesFor, type AsyncRoute } from '../../domain/menu-routes';
import type { Clock } from '../ports/clock';
import type { MenuCatalogue } from '../ports/menu-catalogue';
import { TOKENS } from '../tokens';
import type { MenuSettings } from './menu-settings';

const MAX_PERMISSION_SETS = 1000;

/** The routes one set of permissions may see, once serialised as the admin envelope, and the ETag of that body. */
export interface RoutesAnswer {
  readonly routes: readonly AsyncRoute[];
  /** `{"code":0,"message":"ok","data":<routes>}`, UTF-8. */
  readonly body: Buffer;
  /** A strong entity tag, quoted. */
  readonly etag: string;
}

interface Snapshot {
  readonly menus: readonly Menu[];
  readonly readAt: number;
  readonly answers: Map<string, RoutesAnswer>;
}

@injectable()
export class MenuTreeCache {
  private snapshot: Snapshot | null = null;
  /** The read under way (one at a time: a burst of requests after a change reads the tree once). */
  private reading: Promise<Snapshot> | null = null;
  /** Bumped by `invalidate`: a read that started before a change must not be kept as current. */
  private generation = 0;

  constructor(
    @inject(TOKENS.MenuCatalogue) private readonly catalogue: MenuCatalogue,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.MenuSettings) private readonly settings: MenuSettings,
  ) {}

  /** Forgets the tree: the next request reads it again. */
  invalidate(): void {
    this.generation++;
    this.snapshot = null;
    this.reading = null;
  }

  private async current(): Promise<Snapshot> {
    const s = this.snapshot;
    if (s !== null && this.clock.now() - s.readAt < this.settings.cacheSeconds * 1000) return s;
    if (this.reading !== null) return this.reading;
    const generation = this.generation;
    const reading = this.catalogue.menus().then(
      (menus) => {
        const fresh: Snapshot = { menus, readAt: this.clock.now(), answers: new Map() };
        if (generation === this.generation) {
          this.snapshot = fresh;
          this.reading = null;
        }
        return fresh;
      },
      (e: unknown) => {
        if (generation === this.generation) this.reading = null;
        throw e;
      },
    );
    this.reading = reading;
    return reading;
  }

  /** The whole tree (every menu, enabled or not). */
  async menus(): Promise<readonly Menu[]> {
    return (await this.current()).menus;
  }

  /** What a caller holding `permissions` (a session's snapshot) may see. */
  async routesFor(permissions: readonly string[]): Promise<RoutesAnswer> {
    const s = await this.current();
    const key = permissions.join('\u0000');
    const known = s.answers.get(key);
    if (known !== undefined) return known;
    const routes = routesFor(s.menus, permissions);
    const body = Buffer.from(JSON.stringify({ code: 0, message: 'ok', data: routes }), 'utf8');
    const answer = { routes, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` };
    if (s.answers.size >= MAX_PERMISSION_SETS) s.answers.clear();
    s.answers.set(key, answer);
    return answer;
  }
}

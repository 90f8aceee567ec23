/** Where admin users and members live: the embedded files or SQL. */
import { z } from 'zod';
import { setting } from '../setting';
import { int, str } from '../values';

export const DIRECTORY_KEYS = {
  'svc.directory': setting({
    schema: z.enum(['file', 'sql']),
    default: 'file',
    doc: 'where admin users and members live: `file` (embedded) or `sql` (MySQL / MariaDB, see [sql-directory.md](sql-directory.md))',
  }),
  'svc.menus.cache-seconds': setting({
    schema: int(0, 3600),
    default: 5,
    doc:
      'how long an instance answers `GET /auth/routes` from the menu tree it read before reading it again; a menu or role ' +
      'change made through the instance clears it at once, one made elsewhere (another instance, the database) shows within ' +
      'this time (0: read it for every request)',
  }),
  'svc.datasource.url': setting({
    schema: str,
    default: '',
    doc: '`mysql://host:port/database` (`mariadb://`, `jdbc:mysql://` too); no password in it; required when `svc.directory=sql`',
  }),
  'svc.datasource.username': setting({
    schema: str,
    default: '',
    doc: 'database user; required when `svc.directory=sql`',
  }),
  'svc.datasource.password': setting({
    schema: str,
    default: '',
    secret: true,
    doc: 'database password (secret); required in prod when `svc.directory=sql`',
  }),
};

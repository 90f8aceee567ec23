/** Where admin users and members live: the embedded files or SQL. */
import { z } from 'zod';
import { setting } from '../setting';
import { str } from '../values';

export const DIRECTORY_KEYS = {
  'svc.directory': setting({
    schema: z.enum(['file', 'sql']),
    default: 'file',
    doc: 'where admin users and members live: `file` (embedded) or `sql` (MySQL / MariaDB, see [sql-directory.md](sql-directory.md))',
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

/** `npm run docs:errors`: rewrites docs/errors.md's catalogue table from ERROR_CATALOGUE. */
import { writeTables } from './doc-tables';

writeTables(['error-catalogue']);

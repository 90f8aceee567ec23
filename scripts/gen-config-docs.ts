/** `npm run docs:config`: rewrites docs/configuration.md's table of keys from their declarations. */
import { writeTables } from './doc-tables';

writeTables(['config-keys']);

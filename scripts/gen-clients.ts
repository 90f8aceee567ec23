/** `npm run gen:clients`: regenerates clients/admin.d.ts and clients/web.d.ts from the live documents. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { APP_NAMES, clientFile, generateClients } from './client-types';

async function main(): Promise<void> {
  const generated = await generateClients();
  for (const app of APP_NAMES) {
    const file = clientFile(app);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, generated[app]);
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);

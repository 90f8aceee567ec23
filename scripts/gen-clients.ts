/**
 * `npm run gen:clients`: regenerates clients/<app>.d.ts and the documents themselves (clients/<app>.openapi.json)
 * from the live documents.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { APP_NAMES, clientFile, documentFile, generateClients } from './client-types';

async function main(): Promise<void> {
  const generated = await generateClients();
  for (const app of APP_NAMES) {
    for (const [file, text] of [
      [clientFile(app), generated[app].declarations],
      [documentFile(app), generated[app].document],
    ] as const) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
      console.log(`wrote ${path.relative(process.cwd(), file)}`);
    }
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);

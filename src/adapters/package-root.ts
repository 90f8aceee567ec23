/**
 * The package's root directory (where package.json, config/ and db/ live), found by walking up from
 * this file, so the same code finds it whether it runs from src/ (tsx), dist/ (npm start) or a
 * deeper compiled copy (the benchmark's bench/.build/src/).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const PACKAGE_NAME = 'authguard';
let cached: string | undefined;

export function packageRoot(): string {
  if (cached !== undefined) return cached;
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME) return (cached = dir);
      } catch {
        // not ours (or unreadable): keep walking up
      }
    }
    if (path.dirname(dir) === dir) throw new Error(`cannot find the ${PACKAGE_NAME} package root above ${__dirname}`);
  }
}

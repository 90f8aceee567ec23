#!/usr/bin/env node
// The package's command-line tool (`authguard help`): the compiled CLI after `npm run build`,
// else the TypeScript sources through tsx (a runtime dependency).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const compiled = path.join(__dirname, '..', 'dist', 'main', 'cli.js');
let cli;
if (fs.existsSync(compiled)) {
  cli = require(compiled);
} else {
  require('tsx/cjs');
  cli = require(path.join(__dirname, '..', 'src', 'main', 'cli.ts'));
}
cli.main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});

/** The CLI's terminal: output lines, errors, and reading a secret without putting it on argv. */

/** Bad arguments: one line on stderr, exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The command could not do its work (file exists, store unreachable, user taken): exit status 1. */
export class CliFailure extends Error {
  override readonly name = 'CliFailure';
}

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /**
   * Reads a secret: all of stdin (one trailing newline removed) when stdin is not a terminal,
   * else a prompt on stderr with echo off (asked twice when `confirm`).
   */
  readSecret(prompt: string, confirm: boolean): Promise<string>;
}

function readAllStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    process.stdin.on('data', (c: Buffer) => chunks.push(c));
    process.stdin.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    process.stdin.once('error', reject);
  });
}

/** One line from the terminal with echo off (raw mode); Ctrl-C aborts. */
function promptHidden(prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    process.stderr.write(prompt);
    stdin.setRawMode(true);
    stdin.resume();
    let value = '';
    const done = (err: Error | null): void => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (buf: Buffer): void => {
      for (const ch of buf.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done(null);
        if (ch === '\u0003') return done(new CliFailure('aborted'));
        if (ch === '\u007f' || ch === '\b') value = [...value].slice(0, -1).join('');
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

export function processIo(): CliIo {
  return {
    out: (line) => void process.stdout.write(`${line}\n`),
    err: (line) => void process.stderr.write(`${line}\n`),
    async readSecret(prompt, confirm) {
      if (!process.stdin.isTTY) return (await readAllStdin()).replace(/\r?\n$/, '');
      const first = await promptHidden(`${prompt}: `);
      if (confirm && (await promptHidden(`${prompt} (again): `)) !== first) throw new UsageError('the two entries differ');
      return first;
    },
  };
}

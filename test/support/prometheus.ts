/** Reads Prometheus text exposition in tests. */
/** The value of a sample with exactly these labels (in any order), or undefined. */
export function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] as string).matchAll(/([a-z_]+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.keys(got).length === Object.keys(labels).length && Object.entries(labels).every(([k, v]) => got[k] === v))
      return Number(m[3]);
  }
  return undefined;
}

/**
 * A prom-client Histogram whose hot path is a handful of array writes. prom-client's own
 * `labels(...).observe(v)` re-validates and re-hashes the label object and looks the bucket up by
 * a number-keyed property on every observation (~1 µs, twice per request: the request and its
 * store call). Here each label set is a `HistogramSeries` made once, holding its bucket counts in
 * a typed array; the exposition (the registry's `getForPromString`) is built from the series in
 * exactly the shape prom-client gives it, so the text is the same.
 */
import { Histogram, type HistogramConfiguration } from 'prom-client';

/** One label set of a histogram: observe() is all the hot path does. */
export interface HistogramSeries {
  observe(value: number): void;
}

class Series implements HistogramSeries {
  /** Per-bucket (not cumulative) counts; the last slot is above every bound (+Inf only). */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    if (!Number.isFinite(value)) return; // prom-client would throw on the request path: dropped instead
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > (bounds[i] as number)) i++;
    this.counts[i] = (this.counts[i] as number) + 1;
    this.sum += value;
    this.count += 1;
  }

  reset(): void {
    this.counts.fill(0);
    this.sum = 0;
    this.count = 0;
  }
}

type PromString = Awaited<ReturnType<Histogram['get']>>;
type PromValue = PromString['values'][number] & { sharedLabels?: Record<string, string>; exemplar?: null | undefined };

export class FastHistogram<T extends string> extends Histogram<T> {
  private readonly metricName: string;
  private readonly bounds: readonly number[];
  private readonly series: Series[] = [];

  constructor(config: HistogramConfiguration<T> & { readonly buckets: readonly number[] }) {
    super(config);
    this.metricName = config.name;
    this.bounds = [...config.buckets];
  }

  /** The series of one label set (label names as configured); keep it: making one is not the hot path. */
  seriesOf(labels: Readonly<Record<T, string>>): HistogramSeries {
    const s = new Series({ ...labels }, this.bounds);
    this.series.push(s);
    return s;
  }

  override reset(): void {
    super.reset();
    // prom-client's constructor calls reset() before this class's fields exist.
    for (const s of (this.series as Series[] | undefined) ?? []) s.reset();
  }

  /** What the registry formats: prom-client's own values (observe() used directly), then the series'. */
  async getForPromString(): Promise<PromString> {
    const base = (await (Histogram.prototype as unknown as { getForPromString(): Promise<PromString> }).getForPromString.call(
      this,
    )) as PromString;
    const bucket = `${this.metricName}_bucket`;
    const values: PromValue[] = [...(base.values as PromValue[])];
    for (const s of this.series) {
      if (s.count === 0) continue; // like prom-client: a label set appears once observed
      let cumulative = 0;
      this.bounds.forEach((bound, i) => {
        cumulative += s.counts[i] as number;
        values.push({ labels: { le: bound }, sharedLabels: s.labels, value: cumulative, metricName: bucket, exemplar: null } as PromValue);
      });
      values.push({ labels: { le: '+Inf' }, sharedLabels: s.labels, value: s.count, metricName: bucket, exemplar: null } as PromValue);
      values.push({
        labels: {},
        sharedLabels: s.labels,
        value: s.sum,
        metricName: `${this.metricName}_sum`,
        exemplar: undefined,
      } as PromValue);
      values.push({
        labels: {},
        sharedLabels: s.labels,
        value: s.count,
        metricName: `${this.metricName}_count`,
        exemplar: undefined,
      } as PromValue);
    }
    return { ...base, values: values as PromString['values'] };
  }
}

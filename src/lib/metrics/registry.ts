// Process-wide metrics, written in Prometheus's text exposition format (version 0.0.4) by exposition.ts.
// Counters are plain cells (`cell.value++`): a caller on a hot path takes its cell once (a cache its
// hit and miss cells, a result its cell) and an increment then costs one add, no lookup and no allocation.
// Counters are per thread; those of job worker threads reach the main thread's exposition through
// threads.ts. Gauges are read when scraped, from whatever they describe (the job queue's keys, LMDB's
// meta page, the streaming hub). docs/metrics.md lists every metric.

/** One labelled value of a counter. */
export interface Cell {
  value: number;
}

/** Label values rendered as `{a="x",b="y"}` (or "" without labels): what keys a family's cells. */
export type LabelText = string;

const ESCAPES: Record<string, string> = { "\\": "\\\\", '"': '\\"', "\n": "\\n" };

export function labelText(names: readonly string[], values: readonly string[]): LabelText {
  if (names.length === 0) return "";
  const parts = names.map((name, i) => `${name}="${String(values[i] ?? "").replace(/[\\"\n]/g, (c) => ESCAPES[c]!)}"`);
  return `{${parts.join(",")}}`;
}

/** A counter family: one cell per combination of label values met so far. */
export class Counter {
  readonly cells = new Map<LabelText, Cell>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[] = [],
  ) {
    if (counters.has(name)) throw new Error(`metric ${name} is defined twice`);
    counters.set(name, this);
  }

  /** The cell of these label values (made on first use); keep it where the increment is hot. */
  cell(...values: string[]): Cell {
    const key = labelText(this.labelNames, values);
    let cell = this.cells.get(key);
    if (!cell) this.cells.set(key, (cell = { value: 0 }));
    return cell;
  }
}

/** Every counter family of this thread, by name. */
export const counters = new Map<string, Counter>();

/** Counter values of one thread, as sent between threads: family name → label text → value. */
export type CounterSnapshot = Record<string, Record<LabelText, number>>;

export function snapshotCounters(): CounterSnapshot {
  const snapshot: CounterSnapshot = {};
  for (const [name, counter] of counters) {
    if (counter.cells.size === 0) continue;
    const values: Record<LabelText, number> = {};
    for (const [labels, cell] of counter.cells) values[labels] = cell.value;
    snapshot[name] = values;
  }
  return snapshot;
}

/** A sample of a gauge or of a histogram's series: name suffix (e.g. "_bucket"), label text, value. */
export interface Sample {
  suffix?: string;
  labels: LabelText;
  value: number;
}

/** A metric read at scrape time (gauges, the HTTP histogram, process figures). */
export interface Collected {
  name: string;
  help: string;
  type: "gauge" | "counter" | "histogram";
  samples: Sample[];
}

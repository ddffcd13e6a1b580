// Prometheus's text exposition format, version 0.0.4: `# HELP`, `# TYPE`, then one `name{labels} value`
// line per sample (https://prometheus.io/docs/instrumenting/exposition_formats/).
import { counters, type Collected, type CounterSnapshot } from "./registry.ts";
import { workerCounters } from "./threads.ts";

export const EXPOSITION_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

const escapeHelp = (text: string) => text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");

function number(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

/** The counters of this thread plus those the worker threads last sent. */
export function counterMetrics(): Collected[] {
  const fromWorkers: CounterSnapshot = workerCounters();
  return [...counters.values()].map((counter) => {
    const values = new Map<string, number>();
    for (const [labels, cell] of counter.cells) values.set(labels, cell.value);
    for (const [labels, value] of Object.entries(fromWorkers[counter.name] ?? {})) values.set(labels, (values.get(labels) ?? 0) + value);
    const samples = [...values].map(([labels, value]) => ({ labels, value }));
    // A family without labels shows 0 before its first increment, as client libraries do.
    if (samples.length === 0 && counter.labelNames.length === 0) samples.push({ labels: "", value: 0 });
    return { name: counter.name, help: counter.help, type: "counter" as const, samples };
  });
}

/** `collected` and, unless it already holds them (gathered from several processes), this process's counters. */
export function exposition(collected: readonly Collected[], withCounters = true): string {
  const lines: string[] = [];
  for (const metric of withCounters ? [...collected, ...counterMetrics()] : collected) {
    lines.push(`# HELP ${metric.name} ${escapeHelp(metric.help)}`, `# TYPE ${metric.name} ${metric.type}`);
    for (const sample of metric.samples) lines.push(`${metric.name}${sample.suffix ?? ""}${sample.labels} ${number(sample.value)}`);
  }
  return lines.join("\n") + "\n";
}

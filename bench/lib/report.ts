// The table `npm run bench` prints, and the JSON it keeps under .bench/.
import type { Measurement } from "./stats.ts";

export interface Row {
  scenario: string;
  description: string;
  warren: Measurement;
  bare: Measurement;
  ratio: number;
}

const num = (n: number, digits = 0) => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function table(rows: Row[]): string {
  const header = ["scenario", "warren req/s", "p50 ms", "p99 ms", "bare req/s", "p50 ms", "p99 ms", "ratio"];
  const lines = rows.map((r) => [
    r.scenario,
    num(r.warren.rps),
    num(r.warren.p50, 2),
    num(r.warren.p99, 2),
    num(r.bare.rps),
    num(r.bare.p50, 2),
    num(r.bare.p99, 2),
    num(r.ratio, 2),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [format(header), widths.map((w) => "-".repeat(w)).join("  "), ...lines.map(format)].join("\n");
}

export function problems(rows: Row[]): string[] {
  const out: string[] = [];
  for (const row of rows) {
    for (const [who, m] of [["warren", row.warren], ["bare", row.bare]] as const) {
      if (m.errors) out.push(`${row.scenario}/${who}: ${m.errors} failed requests`);
      for (const [status, count] of Object.entries(m.unexpected)) out.push(`${row.scenario}/${who}: ${count} responses with status ${status}`);
    }
  }
  return out;
}

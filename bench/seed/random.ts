// A seeded pseudo-random source (mulberry32), so `--seed` decides every choice the seeder makes, and a
// sampler of heavy-tailed (Zipf-like) popularity over ranks.

export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /** Pareto-distributed integer ≥ `min` with tail index `alpha`, capped at `max`. */
  pareto(min: number, alpha: number, max: number): number {
    return Math.min(max, Math.floor(min / Math.pow(1 - this.next(), 1 / alpha)));
  }
}

/** Draws indexes 0..n-1 with weight 1 / (rank + 1)^exponent, rank being a fixed shuffle of the indexes. */
export class Zipf {
  private readonly cumulative: Float64Array;
  private readonly byRank: Uint32Array;

  constructor(n: number, exponent: number, random: Random) {
    this.cumulative = new Float64Array(n);
    let total = 0;
    for (let rank = 0; rank < n; rank++) this.cumulative[rank] = total += 1 / Math.pow(rank + 1, exponent);
    this.byRank = Uint32Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = random.int(i + 1);
      [this.byRank[i], this.byRank[j]] = [this.byRank[j]!, this.byRank[i]!];
    }
  }

  /** The index holding `rank` (0 = the most popular). */
  atRank(rank: number): number {
    return this.byRank[rank]!;
  }

  draw(random: Random): number {
    const target = random.next() * this.cumulative[this.cumulative.length - 1]!;
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.cumulative[mid]! < target) low = mid + 1;
      else high = mid;
    }
    return this.byRank[low]!;
  }
}

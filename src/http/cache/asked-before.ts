// Admission of the kept answers (timeline-pages.ts, page-windows.ts): only what was asked before is worth
// keeping. The keys remembered are forgotten all at once when there are `max` of them.
export class AskedBefore {
  private asked = new Set<string>();

  constructor(private readonly max: number) {}

  /** Was `key` asked before? The first time it is remembered and the answer is no. */
  admit(key: string): boolean {
    if (this.asked.has(key)) return true;
    if (this.asked.size >= this.max) this.asked.clear();
    this.asked.add(key);
    return false;
  }
}

// A one-line progress bar on stderr (redrawn at most ten times a second), with rate and time left.

export class Progress {
  private readonly started = performance.now();
  private drawnAt = 0;

  constructor(private readonly label: string, private readonly total: number) {}

  update(done: number): void {
    const now = performance.now();
    if (now - this.drawnAt < 100 && done < this.total) return;
    this.drawnAt = now;
    const fraction = this.total ? done / this.total : 1;
    const width = 30;
    const filled = Math.round(fraction * width);
    const seconds = (now - this.started) / 1000;
    const rate = done / Math.max(seconds, 0.001);
    const left = rate > 0 ? (this.total - done) / rate : 0;
    const bar = "#".repeat(filled) + ".".repeat(width - filled);
    process.stderr.write(`\r${this.label.padEnd(12)} [${bar}] ${done.toLocaleString("en-US")}/${this.total.toLocaleString("en-US")} ` +
      `${Math.round(rate).toLocaleString("en-US")}/s, ${seconds.toFixed(0)} s, ~${left.toFixed(0)} s left   `);
  }

  done(): number {
    this.update(this.total);
    process.stderr.write("\n");
    return (performance.now() - this.started) / 1000;
  }
}

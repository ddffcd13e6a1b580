// Progress of a long operator command on stderr (stdout keeps only the result): a bar redrawn in place on
// a terminal, and a plain line at every tenth otherwise, so logs and pipes get a few readable lines.

export interface Progress {
  update(done: number, total: number): void;
  /** Ends the bar (reports an empty run as complete). */
  finish(): void;
}

const WIDTH = 30;

export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  let reported = false;
  let lastTenth = -1;
  const percent = (done: number, total: number) => (total === 0 ? 100 : Math.floor((done / total) * 100));
  const update = (done: number, total: number) => {
    reported = true;
    const pct = percent(done, total);
    if (stream.isTTY) {
      const filled = Math.round((pct / 100) * WIDTH);
      stream.write(`\r${label} [${"#".repeat(filled)}${" ".repeat(WIDTH - filled)}] ${String(pct).padStart(3)}% ${done}/${total}`);
      return;
    }
    const tenth = Math.floor(pct / 10);
    if (tenth === lastTenth) return;
    lastTenth = tenth;
    stream.write(`${label}: ${pct}% (${done}/${total})\n`);
  };
  return {
    update,
    finish() {
      if (!reported) update(0, 0);
      if (stream.isTTY) stream.write("\n");
    },
  };
}

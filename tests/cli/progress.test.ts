// The progress bar of long operator commands: redrawn in place on a terminal, a line per tenth otherwise.
import { expect, test } from "bun:test";
import { progressBar } from "../../src/cli/progress.ts";

function fakeStream(isTTY: boolean) {
  const written: string[] = [];
  return { written, stream: { isTTY, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream };
}

test("without a terminal: one plain line each time a tenth is passed, and the last", () => {
  const { written, stream } = fakeStream(false);
  const bar = progressBar("Recounting statuses", stream);
  for (let done = 500; done <= 2300; done += 500) bar.update(done, 2300);
  bar.update(2300, 2300);
  bar.finish();
  expect(written).toEqual([
    "Recounting statuses: 21% (500/2300)\n",
    "Recounting statuses: 43% (1000/2300)\n",
    "Recounting statuses: 65% (1500/2300)\n",
    "Recounting statuses: 86% (2000/2300)\n",
    "Recounting statuses: 100% (2300/2300)\n",
  ]);
});

test("on a terminal: the bar is redrawn on one line, ended by a newline", () => {
  const { written, stream } = fakeStream(true);
  const bar = progressBar("Recounting accounts", stream);
  bar.update(1, 2);
  bar.update(2, 2);
  bar.finish();
  expect(written).toEqual([
    `\rRecounting accounts [${"#".repeat(15)}${" ".repeat(15)}]  50% 1/2`,
    `\rRecounting accounts [${"#".repeat(30)}] 100% 2/2`,
    "\n",
  ]);
});

test("nothing to do still reports completion", () => {
  const { written, stream } = fakeStream(false);
  progressBar("Recounting accounts", stream).finish();
  expect(written).toEqual(["Recounting accounts: 100% (0/0)\n"]);
});

// Crash durability, "nothing acknowledged is ever lost": each round drives writes (posts, favourites and
// unfavourites, follows and unfollows) with several requests in flight, SIGKILLs the server 200–1500 ms into
// the load, restarts it on the same data directory and checks every acknowledged write, every counter against
// the rows it counts, and that nothing in flight was half-written (bench/lib/kill9.ts). Rounds share the data
// directory, so each round re-checks everything acknowledged before. Exits 1 on any loss or inconsistency.
// Run: bun bench/kill9.ts [--rounds N] [--lanes N]
import { runKill9 } from "./lib/kill9.ts";

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) {
    console.error(`--${name} wants a positive integer`);
    process.exit(64);
  }
  return value;
}

const rounds = flag("rounds", 5);
const lanes = flag("lanes", 6);
const result = await runKill9({ rounds, lanes, log: (line) => console.log(line) });

const restarts = result.rounds.map((r) => r.restartMs).sort((a, b) => a - b);
const median = restarts[Math.floor(restarts.length / 2)] ?? 0;
console.log("");
console.log(`rounds:                 ${result.rounds.length}`);
console.log(`acknowledged writes:    ${result.acknowledged}`);
console.log(`unanswered at the kill: ${result.rounds.reduce((n, r) => n + r.unanswered, 0)} (posts of them found stored whole: ${result.rounds.reduce((n, r) => n + r.landed, 0)})`);
console.log(`statuses at the end:    ${result.rounds.at(-1)?.statuses ?? 0}`);
console.log(`writes lost:            ${result.lost}`);
console.log(`inconsistencies:        ${result.inconsistencies}`);
console.log(`restart (spawn → 200):  median ${median.toFixed(0)} ms, max ${(restarts.at(-1) ?? 0).toFixed(0)} ms`);
for (const problem of result.problems.slice(0, 50)) console.log(`  ${problem}`);
process.exit(result.lost > 0 || result.inconsistencies > 0 ? 1 : 0);

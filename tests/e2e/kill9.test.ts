// Crash durability, short form of bench/kill9.ts: a real server process takes posts, favourites and follows
// with several requests in flight, is SIGKILLed 200–800 ms into the load and restarted on the same data
// directory. Every write answered 200 must be there, every counter must agree with the rows it counts, and a
// write the kill interrupted must have happened whole or not at all. Two rounds, so the second kill hits a
// store that has already been through one.
import { expect, setDefaultTimeout, test } from "bun:test";
import { runKill9 } from "../../bench/lib/kill9.ts";

setDefaultTimeout(30_000);

test("nothing acknowledged is lost when the server is killed with SIGKILL", async () => {
  const result = await runKill9({ rounds: 2, lanes: 4, killAfterMs: [200, 800] });
  expect(result.problems).toEqual([]);
  expect(result.rounds).toHaveLength(2);
  expect(result.acknowledged).toBeGreaterThan(0);
  expect(result.lost).toBe(0);
  expect(result.inconsistencies).toBe(0);
});

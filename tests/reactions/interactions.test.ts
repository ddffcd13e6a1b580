// src/reactions/interactions.ts and quotes.ts: reblogs, favourites, poll votes and quotes; what a local one
// sends out, and that one from another server sends nothing back.
import { expect, test } from "bun:test";
import { eventRecorder } from "./record.ts";

const { record, reached } = eventRecorder();

const reblog = { statusId: "10", reblogOfId: "1", accountId: "2" };
const favourite = { favouriteId: "5", accountId: "2", statusId: "1" };

test("a reblog is fanned out (realtime) and announced (network); a remote one only fanned out", async () => {
  expect(await record("reblog.created", reblog)).toEqual([
    { name: "federation.send_announce", lane: "network", delayMs: 0 },
    { name: "timelines.fan_out_reblog", lane: "realtime", delayMs: 0 },
  ]);
  expect(await reached("reblog.created", reblog, "remote")).toEqual(["timelines.fan_out_reblog"]);
});

test("an undone reblog is removed, and undone out there for a local one", async () => {
  expect(await reached("reblog.removed", reblog)).toEqual(["federation.send_undo_announce", "statuses.reblog_removal"]);
  expect(await reached("reblog.removed", reblog, "remote")).toEqual(["statuses.reblog_removal"]);
});

test("a favourite only goes out (its count and notification are the action's own write)", async () => {
  expect(await reached("favourite.created", favourite)).toEqual(["federation.send_like"]);
  expect(await reached("favourite.created", favourite, "remote")).toEqual([]);
});

test("an undone favourite: its rows go; an Undo Like for a local one", async () => {
  expect(await reached("favourite.removed", favourite)).toEqual(["favourites.removal", "federation.send_undo_like"]);
  expect(await reached("favourite.removed", favourite, "remote")).toEqual(["favourites.removal"]);
});

test("a local poll vote is sent to the poll's server; a remote one reaches nobody", async () => {
  const vote = { statusId: "1", accountId: "2", choices: [0, 2] };
  expect(await reached("poll.voted", vote)).toEqual(["federation.send_poll_vote"]);
  expect(await reached("poll.voted", vote, "remote")).toEqual([]);
});

test("quotes: a revocation and a settled quote re-render in the streams, and go out when local", async () => {
  const quote = { statusId: "3", quotedStatusId: "1", accountId: "2" };
  expect(await reached("quote.revoked", quote)).toEqual(["federation.quote_revoked", "streaming.quote_revoked"]);
  expect(await reached("quote.revoked", quote, "remote")).toEqual(["streaming.quote_revoked"]);
  expect(await reached("quote.settled", { statusId: "3", quotedStatusId: "1" })).toEqual(["federation.quote_accepted", "streaming.quote_settled"]);
  expect(await reached("status.quote_policy_changed", { statusId: "1", accountId: "2" })).toEqual(["streaming.quote_policy_changed"]);
});

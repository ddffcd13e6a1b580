// Poll entity (API.md §4.5). `voted` and `own_votes` only for signed-in viewers; option counts are null while
// the author hides the totals and the poll runs.
import { t, type Static } from "elysia";
import type { LoadedPoll } from "../domain/polls/poll.ts";
import { publicId } from "../lib/ids.ts";
import { Int } from "./integer.ts";
import { Nullable } from "./nullable.ts";

export const PollSchema = t.Object(
  {
    id: t.String(),
    expires_at: Nullable(t.String()),
    expired: t.Boolean(),
    multiple: t.Boolean(),
    votes_count: Int(),
    voters_count: Nullable(Int()),
    options: t.Array(t.Object({ title: t.String(), votes_count: Nullable(Int()) })),
    emojis: t.Array(t.Unknown()),
    voted: t.Optional(t.Boolean({ description: "Signed-in viewers only; the author counts as having voted" })),
    own_votes: t.Optional(t.Array(Int(), { description: "Signed-in viewers only: the indices chosen" })),
  },
  { description: "Mastodon Poll" },
);

export type Poll = Static<typeof PollSchema>;

/** The poll; `voted`/`own_votes` last, so that the rendered-status cache can splice them (entities/status.ts). */
export function presentPoll(loaded: LoadedPoll, now = Date.now()): Poll {
  const { poll } = loaded;
  const expired = poll.expiresAt !== null && poll.expiresAt <= now;
  const hidden = poll.hideTotals && !expired;
  const out: Poll = {
    id: publicId(poll.statusId),
    expires_at: poll.expiresAt === null ? null : new Date(poll.expiresAt).toISOString(),
    expired,
    multiple: poll.multiple,
    votes_count: poll.votesCount,
    voters_count: poll.votersCount,
    options: poll.options.map((title, i) => ({ title, votes_count: hidden ? null : (poll.optionVotes[i] ?? 0) })),
    emojis: [],
  };
  if (loaded.ownVotes !== null) {
    out.voted = loaded.voted;
    out.own_votes = loaded.ownVotes;
  }
  return out;
}

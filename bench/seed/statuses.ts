// The statuses: posts, replies and reblogs in time order, plus favourites, made through the domain cores
// (postStatus, reblog, favourite) with the records already in hand (the author, the parent or target kept
// from when it was made), so no token, preference or raw id is resolved per action; a wave at a time.
// Within a wave the actions run concurrently (their writes share commits); what they point at (a parent, a
// reblogged or favourited status) is always from an earlier wave, so already committed. After each wave the
// subscriber jobs (fan-out into followers' homes, notifications) run before the next one.
//
// Mix: 74% posts, 18% replies, 8% reblogs; posts are 65% public, 15% unlisted, 12% followers-only and 8%
// direct (always mentioning someone); 15% of the rest mention one or two accounts; 25% carry one or two of
// 300 hashtags (Zipf); 0.6 favourites per status. Who posts is heavy-tailed too (Zipf, its own ranking).
// One public thread gets exactly THREAD_REPLIES replies, a tree, spread over the later three quarters.
import type { Deps } from "../../src/deps.ts";
import type { UserViewer } from "../../src/domain/auth/viewer.ts";
import { postStatus, type StatusDraft } from "../../src/domain/statuses/create.ts";
import { favourite } from "../../src/domain/statuses/favourite.ts";
import { reblog } from "../../src/domain/statuses/reblog.ts";
import { usernameOf } from "./accounts.ts";
import type { FollowGraph } from "./graph.ts";
import type { SeedJobQueue } from "./jobs.ts";
import { Progress } from "./progress.ts";
import { Random, Zipf } from "./random.ts";
import type { StatusRecord, Visibility } from "../../src/model/statuses.ts";

export const THREAD_REPLIES = 200;
/** Actions per wave. Larger waves share commits (1,000 → 5,000 took 100k statuses from 91 to 44 s); the
 * first wave holds only posts, since replies and reblogs pick from earlier waves. */
const WAVE = 5000;
const TAGS = 300;
/** Recent public statuses that replies, reblogs and favourites pick from. */
const RECENT = 5000;
const WORDS = ("the a of to and in is it you that was for on are with as at be this have from or one had by word but not what all were we when " +
  "your can said there use an each which she do how their if will up other about out many then them these so some her would make like him " +
  "into time has look two more write go see number no way could people my than first water been call who oil its now find long down day did").split(" ");

export interface StatusCounts {
  posts: number;
  replies: number;
  reblogs: number;
  favourites: number;
}

export interface SeededStatuses {
  counts: StatusCounts;
  /** Statuses (posts, replies, reblogs) per account index. */
  perAccount: Uint32Array;
  threadRootId: string;
  /** THREAD_REPLIES, unless the run is too short to hold them all. */
  threadReplies: number;
  topTag: string;
}

type Action =
  | { kind: "post"; author: number; text: string; visibility: Visibility; thread?: true }
  | { kind: "reply"; author: number; text: string; parent: StatusRecord; thread?: true }
  | { kind: "reblog"; author: number; status: StatusRecord }
  | { kind: "favourite"; author: number; status: StatusRecord };

export async function createStatuses(deps: Deps & { jobs: SeedJobQueue }, viewers: UserViewer[], graph: FollowGraph, total: number, random: Random): Promise<SeededStatuses> {
  const accounts = viewers.length;
  const activity = new Zipf(accounts, 0.9, random);
  const tags = new Zipf(TAGS, 1, random);
  const tagUse = new Uint32Array(TAGS);
  const perAccount = new Uint32Array(accounts);
  const counts: StatusCounts = { posts: 0, replies: 0, reblogs: 0, favourites: 0 };
  // Records as they were made: the cores read counters afresh inside their writes, so stale ones do.
  const recent: StatusRecord[] = [];
  const threadStart = Math.floor(total / 4);
  // Positions (status numbers) of the thread's replies, at random over the rest of the run from the wave after
  // the root's (whose id is known once its wave has committed).
  const threadFrom = threadStart + WAVE;
  const threadAt = new Set<number>();
  while (threadAt.size < Math.min(THREAD_REPLIES, total - threadFrom)) threadAt.add(threadFrom + random.int(total - threadFrom));
  const thread: { root: StatusRecord | null; replies: StatusRecord[] } = { root: null, replies: [] };

  const words = (n: number) => Array.from({ length: n }, () => random.pick(WORDS)).join(" ");
  const mention = () => `@${usernameOf(graph.popularity.draw(random))}`;
  function text(direct: boolean): string {
    const parts = [words(5 + random.int(25))];
    if (direct || random.chance(0.15)) parts.unshift(random.chance(0.3) ? `${mention()} ${mention()}` : mention());
    if (random.chance(0.25)) {
      for (let i = random.chance(0.3) ? 2 : 1; i > 0; i--) {
        const tag = tags.draw(random);
        tagUse[tag]!++;
        parts.push(`#tag${tag}`);
      }
    }
    return parts.join(" ");
  }
  function visibility(): Visibility {
    const roll = random.next();
    return roll < 0.65 ? "public" : roll < 0.8 ? "unlisted" : roll < 0.92 ? "private" : "direct";
  }

  function plan(n: number): Action {
    const author = activity.draw(random);
    if (n === threadStart) return { kind: "post", author: graph.popularity.atRank(0), text: text(false), visibility: "public", thread: true };
    if (threadAt.has(n)) {
      const parent = thread.replies.length && random.chance(0.5) ? random.pick(thread.replies) : thread.root!;
      return { kind: "reply", author, text: text(false), parent, thread: true };
    }
    const roll = random.next();
    if (recent.length && roll < 0.18) return { kind: "reply", author, text: text(false), parent: random.pick(recent) };
    if (recent.length && roll < 0.26) return { kind: "reblog", author, status: random.pick(recent) };
    const chosen = visibility();
    return { kind: "post", author, text: text(chosen === "direct"), visibility: chosen };
  }

  /** What a client posting plain text in English would have asked for, every default spelled out. */
  const draft = (viewer: UserViewer, text: string, visibility: Visibility, parent: StatusRecord | null): StatusDraft =>
    ({ text, spoilerText: "", sensitive: false, visibility, language: "en", parent, mediaIds: [], applicationId: viewer.app.id });

  async function perform(action: Action): Promise<void> {
    const viewer = viewers[action.author]!;
    switch (action.kind) {
      case "post": {
        const status = await postStatus(deps, viewer.account, draft(viewer, action.text, action.visibility, null));
        counts.posts++;
        perAccount[action.author]!++;
        if (action.thread) thread.root = status;
        if (status.visibility === "public") remember(status);
        return;
      }
      case "reply": {
        // A reply takes its parent's visibility, as the API does when the client names none.
        const status = await postStatus(deps, viewer.account, draft(viewer, action.text, action.parent.visibility, action.parent));
        counts.replies++;
        perAccount[action.author]!++;
        if (action.thread) thread.replies.push(status);
        return;
      }
      case "reblog":
        await reblog(deps, viewer.account, action.status, "public");
        counts.reblogs++;
        perAccount[action.author]!++;
        return;
      case "favourite":
        await favourite(deps, viewer.account, action.status);
        counts.favourites++;
    }
  }
  function remember(status: StatusRecord): void {
    recent.push(status);
    if (recent.length > RECENT * 2) recent.splice(0, RECENT);
  }

  const progress = new Progress("statuses", total);
  for (let from = 0; from < total; from += WAVE) {
    const actions: Action[] = [];
    for (let n = from; n < Math.min(total, from + WAVE); n++) {
      actions.push(plan(n));
      // Favourites ride along: 0.6 per status on average, of recent public statuses.
      if (recent.length && random.chance(0.6)) actions.push({ kind: "favourite", author: activity.draw(random), status: random.pick(recent) });
    }
    await Promise.all(actions.map(perform));
    await deps.jobs.runPending();
    progress.update(Math.min(total, from + WAVE));
  }
  progress.done();
  const topTag = tagUse.indexOf(Math.max(...tagUse));
  return { counts, perAccount, threadRootId: thread.root?.id ?? "", threadReplies: thread.replies.length, topTag: `tag${topTag}` };
}

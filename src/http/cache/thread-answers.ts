// Kept thread answers (GET /api/v1/statuses/:id/context), answered again before routing while nothing they
// show has changed: the timeline pages' cache (timeline-pages.ts, the same stamp, admission and bounds) with
// a thread's two lists. What a thread depends on is recorded while it is built: its root, every ancestor and
// reply walked (shown or not; a reply's write bumps its parent's `s:` through the replies index, so a new
// reply, a deletion or an edit anywhere in the tree moves a status the answer read), their authors' and
// mentioned accounts, and the viewer's versions (blocks both ways, mutes, follows, filters). A change to an
// author alone renders the answer again from the statuses it loaded; anything else builds it again, from the
// rendered statuses (rendered-statuses.ts), so only the statuses that changed are rendered afresh.
import type { Deps } from "../../deps.ts";
import type { Viewer } from "../../domain/auth/viewer.ts";
import { recordingReads } from "../../domain/caches/invalidate.ts";
import { loadStatuses } from "../../domain/statuses/load.ts";
import type { LoadedStatuses } from "../../domain/statuses/loaded.ts";
import type { StatusContext } from "../../domain/statuses/read.ts";
import type { Status } from "../../entities/status.ts";
import type { StatusRecord } from "../../model/statuses.ts";
import { JSON_TYPE, type Setter } from "../api/v1/statuses/shared.ts";
import { writeStatuses } from "./rendered-statuses.ts";
import { writeBytes } from "../../lib/byte-writer.ts";
import { keptBody, type PageCache } from "./timeline-pages.ts";
import { pageStamp, viewerNameCount } from "./page-stamp.ts";

/** The route's answer, typed as its schema documents it; sent as the JSON's UTF-8 bytes. */
export interface ContextAnswer {
  ancestors: Status[];
  descendants: Status[];
}

const STATUSES = "/api/v1/statuses/";
const CONTEXT = "/context";

const keyOf = (request: Request) => `${request.headers.get("authorization") ?? ""} ${request.url}`;

/** `loaded` holds the ancestors, then the descendants: the first `ancestors` of them are the former. */
function threadJson(deps: Deps, loaded: LoadedStatuses, ancestors: number): Uint8Array {
  const { viewerId, statuses } = loaded;
  return writeBytes((out) => {
    out.ascii('{"ancestors":');
    writeStatuses(out, deps, { viewerId, statuses: statuses.slice(0, ancestors) });
    out.ascii(',"descendants":');
    writeStatuses(out, deps, { viewerId, statuses: statuses.slice(ancestors) });
    out.ascii("}");
  });
}

/**
 * The context answer, built by `read` (the root as the viewer may see it, and its thread) and kept for a
 * request asked before. Threads of remote statuses are not kept: each read may ask their server for replies
 * (federation/background-asks.ts askForReplies), which `read` does.
 */
export function threadAnswer(
  deps: Deps,
  cache: PageCache,
  request: Request,
  set: Setter,
  viewer: Viewer | null,
  read: () => { root: StatusRecord; thread: StatusContext },
): ContextAnswer {
  const viewerId = viewer?.account?.id ?? null;
  let loaded: LoadedStatuses | undefined;
  let ancestors = 0;
  let local = false;
  const build = () => {
    const { root, thread } = read();
    local = root.local;
    const before = loadStatuses(deps, viewerId, thread.ancestors, { context: "thread" });
    const after = loadStatuses(deps, viewerId, thread.descendants, { context: "thread" });
    ancestors = before.statuses.length;
    loaded = { viewerId, statuses: [...before.statuses, ...after.statuses] };
    return threadJson(deps, loaded, ancestors);
  };
  if (deps.config.cacheStatusHeader) set.headers["x-warren-cache"] = "miss";
  set.headers["content-type"] = JSON_TYPE;
  const key = keyOf(request);
  if (!cache.admit(key)) return answer(build());
  // One synchronous pass: the reads, the presentation and the versions all see one read snapshot.
  const { result: body, reads } = recordingReads(build);
  const stamp = local ? pageStamp(deps, viewer, reads.names, reads.until) : undefined;
  if (stamp && loaded) {
    const cacheControl = (set.headers["cache-control"] as string | undefined) ?? "private, no-store";
    const split = ancestors;
    const render = (d: Deps, again: LoadedStatuses) => threadJson(d, again, split);
    cache.set(key, { stamp, viewerNames: viewerNameCount(viewer), loaded, checkedAt: -1, body, headers: { "cache-control": cacheControl }, renderedAgain: false, render, builtNames: stamp.names.length });
  }
  return answer(body);
}

const answer = (body: Uint8Array) => body as unknown as ContextAnswer;

/** Before routing: the kept answer for this exact context request, if it is still current. */
export function keptThread(deps: Deps, cache: PageCache, request: Request, set: Setter): Uint8Array | undefined {
  if (request.method !== "GET") return undefined;
  const { url } = request;
  const query = url.indexOf("?");
  const end = query < 0 ? url.length : query;
  if (!url.startsWith(CONTEXT, end - CONTEXT.length) || !url.includes(STATUSES)) return undefined;
  return keptBody(deps, cache.get(deps, keyOf(request), Date.now()), set);
}

// status.removed: the deferred part of deleting a status or undoing a reblog (domain/statuses/remove.ts).
import { removeStatus } from "../../domain/statuses/remove.ts";
import { removeStatusFromTimelines } from "../../domain/timelines/removal.ts";
import type { JobHandler } from "./index.ts";

export const statusRemoved: JobHandler = async (ctx, payload: { statusId: string }) => {
  // Feeds first, while the record (author, tags, visibility) is still there; this also signals `delete`.
  await removeStatusFromTimelines(ctx.store, ctx.emit, payload.statusId);
  await removeStatus(ctx.store, payload.statusId);
};

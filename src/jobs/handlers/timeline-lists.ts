// timeline.list_member_added / timeline.list_deleted: list feed back-fill and removal (domain/timelines/follows.ts).
import { backfillList, removeListFeed } from "../../domain/timelines/follows.ts";
import type { ListJob, ListMemberJob } from "../../domain/timelines/jobs.ts";
import type { JobHandler } from "./index.ts";

export const timelineListMemberAdded: JobHandler = (ctx, payload: ListMemberJob) =>
  backfillList(ctx.store, payload.ownerId, payload.listId, payload.accountId);

export const timelineListDeleted: JobHandler = (ctx, payload: ListJob) => removeListFeed(ctx.store, payload.listId);

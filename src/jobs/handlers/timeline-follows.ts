// timeline.follow_created / timeline.follow_removed: home back-fill and clean-up (domain/timelines/follows.ts).
import { backfillHome, forgetFollow } from "../../domain/timelines/follows.ts";
import type { FollowJob } from "../../domain/timelines/jobs.ts";
import type { JobHandler } from "./index.ts";

export const timelineFollowCreated: JobHandler = (ctx, payload: FollowJob) => backfillHome(ctx.store, payload.followerId, payload.targetId);

export const timelineFollowRemoved: JobHandler = (ctx, payload: FollowJob) => forgetFollow(ctx.store, payload.followerId, payload.targetId);

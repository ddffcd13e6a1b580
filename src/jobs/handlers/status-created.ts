// status.created: fan-out of a new status or reblog into home and list feeds (domain/timelines/distribute.ts).
import { fanOutStatus } from "../../domain/timelines/distribute.ts";
import type { StatusJob } from "../../domain/timelines/jobs.ts";
import type { JobHandler } from "./index.ts";

export const statusCreated: JobHandler = (ctx, payload: StatusJob) => fanOutStatus(ctx.store, ctx.emit, payload.statusId);

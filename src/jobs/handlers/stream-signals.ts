// status.updated, filters.changed: raise the matching stream signal for the streaming hub on the main thread
// (domain/streaming/signals.ts). Nothing else to do, so running twice is harmless. Notifications are signalled
// by the `streaming.notification` subscriber. `filters.changed` is enqueued by every filter write
// (domain/filters/manage.ts), in the write's transaction.
import { STREAM_TOPIC } from "../../domain/streaming/signals.ts";
import type { JobHandler } from "./index.ts";

type StatusJob = { statusId: string };
type AccountJob = { accountId: string };

export const statusUpdated: JobHandler = (ctx, payload: StatusJob) => ctx.emit({ topic: STREAM_TOPIC, kind: "status.update", statusId: payload.statusId });

export const filtersChanged: JobHandler = (ctx, payload: AccountJob) => ctx.emit({ topic: STREAM_TOPIC, kind: "filters_changed", accountId: payload.accountId });

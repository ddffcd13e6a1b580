// filters.changed: raises the stream signal for the streaming hub on the main thread
// (domain/streaming/signals.ts). Nothing else to do, so running twice is harmless. Notifications and edits are
// signalled by the `streaming.notification` and `streaming.status_update` subscribers. `filters.changed` is enqueued by every filter write
// (domain/filters/manage.ts), in the write's transaction.
import { STREAM_TOPIC } from "../../domain/streaming/signals.ts";
import type { JobHandler } from "./index.ts";

type AccountJob = { accountId: string };

export const filtersChanged: JobHandler = (ctx, payload: AccountJob) => ctx.emit({ topic: STREAM_TOPIC, kind: "filters_changed", accountId: payload.accountId });

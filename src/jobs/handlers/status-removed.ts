// status.removed: the deferred part of deleting a status or undoing a reblog (domain/statuses/remove.ts).
import { removeStatus } from "../../domain/statuses/remove.ts";
import type { JobHandler } from "./index.ts";

export const statusRemoved: JobHandler = (ctx, payload: { statusId: string }) => removeStatus(ctx.store, payload.statusId);

// status.idempotency_expired: forgets an Idempotency-Key an hour after its status was posted.
import { expireIdempotency } from "../../store/statuses.ts";
import type { JobHandler } from "./index.ts";

export const statusIdempotencyExpired: JobHandler = async (ctx, payload: { accountId: string; key: string; statusId: string }) => {
  await ctx.store.write(() => expireIdempotency(ctx.store, payload.accountId, payload.key, payload.statusId));
};

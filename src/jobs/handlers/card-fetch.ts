// card.fetch: a new status's link card (domain/statuses/card.ts).
import { fetchStatusCard, type CardFetchPayload } from "../../domain/statuses/card.ts";
import type { JobHandler } from "./index.ts";

export const cardFetch: JobHandler = (ctx, payload: CardFetchPayload) => fetchStatusCard(ctx.store, ctx.config, payload);

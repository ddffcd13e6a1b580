// favourite.removed: the deferred part of unfavouriting (domain/statuses/favourite.ts).
import { completeFavouriteRemoval } from "../../domain/statuses/favourite.ts";
import type { JoinRow } from "../../store/statuses-interactions.ts";
import type { JobHandler } from "./index.ts";

export const favouriteRemoved: JobHandler = (ctx, payload: JoinRow) => completeFavouriteRemoval(ctx.store, payload);

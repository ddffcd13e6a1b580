// block.created: the deferred clean-up of a block (see domain/relationships/block-cleanup.ts).
import { cleanUpAfterBlock } from "../../domain/relationships/block-cleanup.ts";
import type { BlockCreated } from "../../domain/relationships/block.ts";
import type { JobHandler } from "./index.ts";

export const blockCreated: JobHandler = (ctx, payload: BlockCreated) => cleanUpAfterBlock(ctx.store, payload);

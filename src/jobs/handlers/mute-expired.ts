// mute.expired: deletes a mute whose duration has run out (see domain/relationships/mute.ts).
import { removeExpiredMute, type MuteExpired } from "../../domain/relationships/mute.ts";
import type { JobHandler } from "./index.ts";

export const muteExpired: JobHandler = (ctx, payload: MuteExpired) => removeExpiredMute(ctx.store, payload);

// What follows an upload (domain/media): processing in its own lane (minutes of ffmpeg must not hold up
// anything else), and clean-up a day on of an upload no status took.
import type { Subscriber } from "../domain/events.ts";
import { expireUnattached, UNATTACHED_TTL_MS } from "../domain/media/cleanup.ts";
import { processQueuedMedia } from "../domain/media/process.ts";
import { MEDIA_LIMITS } from "../domain/limits.ts";
import { on } from "./table.ts";

/** An upload that became free (uploaded, or freed by a redraft) goes a day later unless it is on a status. */
const expireMedia = <T extends "media.uploaded" | "media.detached">(name: "media.expire_unattached" | "media.expire_detached", event: T): Subscriber<T> =>
  on<T>({
    name,
    on: event,
    lane: "default",
    delayMs: () => UNATTACHED_TTL_MS,
    run: async (ctx, recorded) => {
      await expireUnattached(ctx.store, ctx.config, recorded.payload.mediaId);
    },
  });

export const MEDIA_REACTIONS: readonly Subscriber<any>[] = [
  on({
    name: "media.process",
    on: "media.uploaded",
    lane: "media",
    // Probe, transcode and preview frame are separate ffmpeg runs, each with the processing time limit.
    timeoutMs: 3 * MEDIA_LIMITS.processingTimeoutMs,
    delayMs: (event) => (event.payload.processing ? 0 : null),
    run: (ctx, event) => processQueuedMedia(ctx.store, ctx.config, event.payload.mediaId),
  }),
  expireMedia("media.expire_unattached", "media.uploaded"),
  expireMedia("media.expire_detached", "media.detached"),
];

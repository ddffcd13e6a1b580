// What follows an upload (domain/media): processing in its own lane (minutes of ffmpeg must not hold up
// anything else), and clean-up a day on of an upload no status took.
import type { Subscriber } from "../domain/events.ts";
import { expireUnattached, UNATTACHED_TTL_MS } from "../domain/media/cleanup.ts";
import { processQueuedMedia } from "../domain/media/process.ts";
import { MEDIA_LIMITS } from "../domain/limits.ts";
import { MAX_TRANSCODE_SECONDS } from "../config.ts";
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
    // A backstop: the transcode is killed past its budget (at most the configured cap), the probes and the
    // preview frame past theirs, and the job then ends with the upload marked failed.
    timeoutMs: MAX_TRANSCODE_SECONDS * 1000 + 4 * MEDIA_LIMITS.probeTimeoutMs,
    // One upload per account at a time, the accounts taking turns (jobs/fair.ts).
    group: (event) => event.payload.accountId,
    delayMs: (event) => (event.payload.processing ? 0 : null),
    run: (ctx, event) => processQueuedMedia(ctx.store, ctx.config, event.payload.mediaId),
  }),
  expireMedia("media.expire_unattached", "media.uploaded"),
  expireMedia("media.expire_detached", "media.detached"),
];

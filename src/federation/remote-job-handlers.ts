// The handlers of the background fetch jobs (remote-jobs.ts), for the reactions' job table
// (src/reactions/timers.ts): each loads its module on first use, so job workers load Fedify only when such a
// job runs. Apart from remote-jobs.ts, which the fetchers import to queue their follow-ups, so no circle forms.
import {
  REMOTE_ACCOUNT_COMPLETE, REMOTE_ACCOUNT_REFRESH, REMOTE_EMOJI_FETCH, REMOTE_MEDIA_FETCH, REMOTE_PROFILE_IMAGE_FETCH, REMOTE_REPLIES_FETCH, REMOTE_STATUS_FETCH,
  REMOTE_THREAD_FETCH,
} from "../domain/job-names.ts";
import type { FederationDeps } from "./context.ts";

/** The job handlers, loaded lazily so job workers load Fedify only when such a job runs. */
export const remoteFetchHandlers: Record<string, (deps: FederationDeps, payload: any) => Promise<void>> = {
  [REMOTE_ACCOUNT_COMPLETE]: async (ctx, payload) => (await import("./account-completion.ts")).completeRemoteAccount(ctx, payload),
  [REMOTE_ACCOUNT_REFRESH]: async (ctx, payload) => (await import("./account-completion.ts")).refreshRemoteAccount(ctx, payload),
  [REMOTE_THREAD_FETCH]: async (ctx, payload) => (await import("./thread-fetch.ts")).fetchThreadStep(ctx, payload),
  [REMOTE_REPLIES_FETCH]: async (ctx, payload) => (await import("./thread-fetch.ts")).fetchReplies(ctx, payload),
  [REMOTE_MEDIA_FETCH]: async (ctx, payload) => (await import("./remote-media.ts")).fetchRemoteAttachment(ctx, payload),
  [REMOTE_PROFILE_IMAGE_FETCH]: async (ctx, payload) => (await import("./remote-media.ts")).fetchRemoteProfileImage(ctx, payload),
  [REMOTE_EMOJI_FETCH]: async (ctx, payload) => (await import("./remote-emojis.ts")).fetchRemoteEmoji(ctx, payload),
  [REMOTE_STATUS_FETCH]: async (ctx, payload) => (await import("./thread-fetch.ts")).fetchOneStatus(ctx, payload),
};

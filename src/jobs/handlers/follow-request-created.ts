// follow_request.created: e-mail the owner of the locked account (see domain/relationships/follow-request-mail.ts).
import { mailFollowRequest } from "../../domain/relationships/follow-request-mail.ts";
import type { FollowRequestCreated } from "../../domain/relationships/follow.ts";
import type { JobHandler } from "./index.ts";

export const followRequestCreated: JobHandler = (ctx, payload: FollowRequestCreated) => mailFollowRequest(ctx.store, ctx.config, payload);

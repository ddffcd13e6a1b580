// The job that runs a Fedify message (src/federation/queue.ts) on whichever thread claimed it: that thread's
// federation listens on its queue and processes the message (a delivery, an incoming activity, a fan-out).
import type { JobContext } from "../jobs/registry.ts";
import type { FederationMessageJob } from "./queue.ts";
import { threadFederation } from "./thread-federation.ts";

export async function runFederationMessage(ctx: JobContext, payload: FederationMessageJob): Promise<void> {
  // Loaded on first use (thread-federation.ts): processes that never federate (the CLI) do not load Fedify.
  await (await threadFederation(ctx)).queue.deliver(payload);
}

// A Fedify Context outside any request: what subscribers send through and what fetches (threads.ts) look
// objects up with, from this thread's federation (thread-federation.ts).
import type { Context } from "@fedify/fedify";
import type { FederationDeps } from "./context.ts";
import { threadFederation } from "./thread-federation.ts";

export async function context(deps: FederationDeps): Promise<Context<void>> {
  return (await threadFederation(deps)).federation.createContext(new URL(deps.config.url), undefined);
}

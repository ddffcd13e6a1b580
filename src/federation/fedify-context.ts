// A Fedify Context outside any request: what subscribers send through and what fetches (threads.ts) look
// objects up with. This thread's federation is loaded on first use: index.ts registers every inbox listener,
// so the modules it reaches get to it only lazily, and processes that never federate do not load Fedify.
import type { Context } from "@fedify/fedify";
import type { FederationDeps } from "./context.ts";

export async function context(deps: FederationDeps): Promise<Context<void>> {
  const { federationFor } = await import("./index.ts");
  return federationFor(deps).federation.createContext(new URL(deps.config.url), undefined);
}

// This thread's federation, for the modules that send or fetch outside an incoming request (fedify-context.ts,
// remote-accounts.ts, jobs.ts, route.ts). index.ts builds it and registers every inbox listener, which reach
// those modules: they get it through this door instead of importing index.ts, and the composition root
// (src/compose.ts) says where the builder is. It is loaded on first use, so a process that never federates
// does not load Fedify.
import type { ThreadDeps, WarrenFederation } from "./context.ts";

export interface FederationBuilders {
  /** This thread's federation for `deps.store`, built on first use. */
  federationFor(deps: ThreadDeps): WarrenFederation;
  /** A second federation that takes inbox POSTs as verified (inbox-fallback.ts). */
  preverifiedFederationFor(deps: ThreadDeps): WarrenFederation;
}

let loadBuilders: (() => Promise<FederationBuilders>) | null = null;

/** Called once by the composition root: where the builders are (federation/index.ts). */
export function wireFederation(load: () => Promise<FederationBuilders>): void {
  loadBuilders = load;
}

/** The builders, loaded once. */
export async function federationBuilders(): Promise<FederationBuilders> {
  if (!loadBuilders) throw new Error("federation is not wired: the composition root (src/compose.ts) wires it");
  return loadBuilders();
}

/** This thread's federation. */
export async function threadFederation(deps: ThreadDeps): Promise<WarrenFederation> {
  return (await federationBuilders()).federationFor(deps);
}

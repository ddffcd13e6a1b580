// A scenario prepares its data through the API and names the one request the load generator repeats.
import type { BenchClient } from "../lib/client.ts";
import type { RequestSpec } from "../lib/load.ts";
import type { SeedManifest } from "../seed/manifest.ts";

export interface Scenario {
  name: string;
  description: string;
  /** `seeded` is the instance a scale scenario runs on (bench/seed.ts); other scenarios get a fresh one. */
  prepare(client: BenchClient, seeded?: SeedManifest): Promise<RequestSpec>;
  /** Runs on a copy of the seeded instance (`bun bench/run.ts --data DIR`, or the default small seed). */
  seeded?: true;
  /** Load of its own beside the measured requests (a writer among readers); resolves once started, returns stop,
   * which may resolve to lines to print with the results (figures the background measured, e.g. queue lag). */
  background?(client: BenchClient, seeded?: SeedManifest): Promise<() => Promise<void | string[]>>;
  /** Warren's environment for this scenario, over the defaults of bench/lib/servers.ts. */
  env?: Record<string, string>;
  /** Another scenario this one is a variant of: the report prints their ratios to the bare handler divided. */
  variantOf?: string;
}

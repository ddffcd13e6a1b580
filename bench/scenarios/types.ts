// A scenario prepares its data through the API and names the one request the load generator repeats.
import type { BenchClient } from "../lib/client.ts";
import type { RequestSpec } from "../lib/load.ts";

export interface Scenario {
  name: string;
  description: string;
  prepare(client: BenchClient): Promise<RequestSpec>;
  /** Warren's environment for this scenario, over the defaults of bench/lib/servers.ts. */
  env?: Record<string, string>;
  /** Another scenario this one is a variant of: the report prints their ratios to the bare handler divided. */
  variantOf?: string;
}

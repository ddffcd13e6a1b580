// A scenario prepares its data through the API and names the one request the load generator repeats.
import type { BenchClient } from "../lib/client.ts";
import type { RequestSpec } from "../lib/load.ts";

export interface Scenario {
  name: string;
  description: string;
  prepare(client: BenchClient): Promise<RequestSpec>;
}

// The Meilisearch engine (src/search/meilisearch.ts) against a real server: the shared contract. Runs when
// WARREN_MEILISEARCH_URL (and WARREN_MEILISEARCH_KEY if the server has one) points at a Meilisearch server;
// its indexes get a prefix of their own and are deleted afterwards. Without a server the suite is skipped
// and says so: there is no mock of Meilisearch.
import { test } from "bun:test";
import { Meilisearch } from "meilisearch";
import { loadConfig } from "../../src/config.ts";
import { createMeilisearchEngine } from "../../src/search/meilisearch.ts";
import { searchContract } from "./contract.ts";

const config = loadConfig({ WARREN_MEILISEARCH_URL: process.env.WARREN_MEILISEARCH_URL, WARREN_MEILISEARCH_KEY: process.env.WARREN_MEILISEARCH_KEY });
const server = config.meilisearch;

if (!server) {
  test.skip("Meilisearch contract: skipped, WARREN_MEILISEARCH_URL is not set", () => {});
} else {
  searchContract("meilisearch", async () => {
    const indexPrefix = `warren_test_${process.pid}_${Date.now()}_`;
    return {
      engine: createMeilisearchEngine({ ...server, indexPrefix }),
      async close() {
        const client = new Meilisearch({ host: server.url, apiKey: server.key ?? undefined });
        for (const name of ["accounts", "statuses", "tags"]) await client.deleteIndexIfExists(`${indexPrefix}${name}`);
      },
    };
  });
}

// IP blocks of severity `no_access` (domain/admin/ip-blocks.ts): every request from a blocked network is
// refused before anything else reads it, as Mastodon's Rack::Attack blocklist does. The client address is
// read as the rate limits read it (the peer, or X-Forwarded-For behind a trusted proxy).
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { ipBlockSeverityFor } from "../../domain/admin/ip-blocks.ts";
import { requestAddress } from "../client-address.ts";

const refused = () =>
  new Response(JSON.stringify({ error: "This action is not allowed" }), { status: 403, headers: { "content-type": "application/json; charset=utf-8" } });

export const ipBlocksPlugin = (deps: Deps) =>
  new Elysia({ name: "warren-ip-blocks", seed: deps.store.dir }).onRequest(({ request, server }) => {
    let severity;
    try {
      severity = ipBlockSeverityFor(deps.store, requestAddress(deps.config, request, server));
    } catch {
      return; // a store that does not answer (closed, broken) blocks no one: /health then says so with its 503
    }
    if (severity === "no_access") return refused();
  });

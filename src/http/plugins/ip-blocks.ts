// IP blocks of severity `no_access` (domain/admin/ip-blocks.ts): every request from a blocked network is
// refused before anything else reads it, as Mastodon's Rack::Attack blocklist does. The client address is
// read as the rate limits read it (the peer, or X-Forwarded-For behind a trusted proxy), and only when some
// block exists: with none, a request costs one check of the blocks' version (domain/admin/ip-blocks.ts).
import { Elysia } from "elysia";
import type { Server } from "elysia/universal";
import type { Deps } from "../../deps.ts";
import { refusedEverything } from "../../domain/admin/ip-blocks.ts";
import { requestAddress } from "../client-address.ts";

const REFUSAL = JSON.stringify({ error: "This action is not allowed" });
const REFUSAL_INIT = { status: 403, headers: { "content-type": "application/json; charset=utf-8" } };

function blocked(deps: Deps, request: Request, serverOf: () => Server | null): boolean {
  try {
    return refusedEverything(deps.store, () => requestAddress(deps.config, request, serverOf()));
  } catch {
    return false; // a store that does not answer (closed, broken) blocks no one: /health then says so with its 503
  }
}

/** The 403 of a request from a network a `no_access` block covers, or undefined. */
export function ipBlockRefusal(deps: Deps, request: Request, serverOf: () => Server | null): Response | undefined {
  return blocked(deps, request, serverOf) ? new Response(REFUSAL, REFUSAL_INIT) : undefined;
}

/**
 * `serverOf`: the app's server (null in process), read only when a block exists (a hook that names `server`
 * makes Elysia give every request's context a getter for it). The hook comes after the one that hands
 * ActivityPub requests to Fedify (which asks ipBlockRefusal first, src/app.ts): that one is awaited, and the
 * check here then shares its read of the version log with the token check of the same synchronous run.
 */
export const ipBlocksPlugin = (deps: Deps, serverOf: () => Server | null) =>
  new Elysia({ name: "warren-ip-blocks", seed: deps.store.dir }).onRequest(({ request }) => {
    // `new Response` here, not a function's answer: Elysia takes a hook that returns a call's value for an
    // async one and awaits it on every request (tests/http/request-cost.test.ts).
    if (blocked(deps, request, serverOf)) return new Response(REFUSAL, REFUSAL_INIT);
  });

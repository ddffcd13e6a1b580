// The address a request came from, as the rate limits read it (the peer, or X-Forwarded-For behind a trusted
// proxy): what sign-ins and sign-ups are recorded with (Admin::Account `ip`/`ips`).
import type { Server } from "elysia/universal";
import type { Config } from "../config.ts";
import { clientAddress, trustedRanges } from "./plugins/rate-limits/client-ip.ts";

const rangesOf = new WeakMap<Config, ReturnType<typeof trustedRanges>>();

export function requestAddress(config: Config, request: Request, server: Server | null | undefined): string | null {
  let ranges = rangesOf.get(config);
  if (!ranges) rangesOf.set(config, (ranges = trustedRanges(config.trustedProxies)));
  return clientAddress(server ? (server.requestIP(request)?.address ?? null) : null, request.headers.get("x-forwarded-for"), ranges);
}

// The federation's side of the domain's RemoteLookups (deps.ts): the composition root puts this in
// every Deps (app.ts, cli, reactions' job contexts, the inbox's own). Its modules load on first use, so a
// process that looks nothing up never loads Fedify (see senders.ts).
import type { RemoteLookups } from "../deps.ts";

const accounts = () => import("./remote-accounts.ts");

export const federationRemote: RemoteLookups = {
  account: async (deps, username, domain, refetch) => (await accounts()).resolveRemoteAccount(deps, username, domain, refetch),
  accountByUrl: async (deps, url) => (await accounts()).resolveRemoteAccountByUrl(deps, url),
  status: async (deps, url) => (await import("./threads.ts")).fetchStatus(deps, url),
};

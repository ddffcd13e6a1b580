// NodeInfo 2.0 (API.md §13): the discovery document and the schema-2.0 description of this server.
import { t, type Static } from "elysia";
import { Int } from "./integer.ts";
import type { Config, RegistrationMode } from "../config.ts";
import { SOFTWARE_VERSION } from "../domain/limits.ts";
import type { InstanceDescription, InstanceUsage } from "../domain/instance/info.ts";

export const NODEINFO_SCHEMA = "http://nodeinfo.diaspora.software/ns/schema/2.0";

export const NodeInfoLinksSchema = t.Object(
  { links: t.Array(t.Object({ rel: t.String(), href: t.String() })) },
  { description: "NodeInfo discovery document" },
);

export const NodeInfoSchema = t.Object(
  {
    version: t.Literal("2.0"),
    software: t.Object({ name: t.String(), version: t.String() }),
    protocols: t.Array(t.String()),
    services: t.Object({ outbound: t.Array(t.String()), inbound: t.Array(t.String()) }),
    usage: t.Object({
      users: t.Object({ total: Int(), activeMonth: Int(), activeHalfyear: Int() }),
      localPosts: Int(),
    }),
    openRegistrations: t.Boolean(),
    metadata: t.Object({ nodeName: t.String(), nodeDescription: t.String() }),
  },
  { description: "NodeInfo 2.0" },
);

export type NodeInfo = Static<typeof NodeInfoSchema>;

export function presentNodeInfoLinks(config: Config): Static<typeof NodeInfoLinksSchema> {
  return { links: [{ rel: NODEINFO_SCHEMA, href: `${config.url}/nodeinfo/2.0` }] };
}

export function presentNodeInfo(
  config: Config,
  facts: { usage: InstanceUsage; registrations: RegistrationMode; description: InstanceDescription },
): NodeInfo {
  return {
    version: "2.0",
    // Our own name: Mastodon clients detect features from /api/v2/instance `version`, which carries Mastodon's.
    software: { name: "warren", version: SOFTWARE_VERSION },
    protocols: ["activitypub"],
    services: { outbound: [], inbound: [] },
    usage: {
      users: { total: facts.usage.total, activeMonth: facts.usage.activeMonth, activeHalfyear: facts.usage.activeHalfyear },
      localPosts: facts.usage.localPosts,
    },
    // As Mastodon: true unless sign-ups are closed (sign-ups that wait for approval are open).
    openRegistrations: facts.registrations !== "closed",
    metadata: { nodeName: config.instanceTitle, nodeDescription: facts.description.text },
  };
}

// GET /.well-known/nodeinfo (discovery, cached 3 days) and GET /nodeinfo/2.0 (cached 30 minutes), API.md §13.
import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { nodeFacts } from "../../domain/instance/info.ts";
import { NODEINFO_SCHEMA, NodeInfoLinksSchema, NodeInfoSchema, presentNodeInfo, presentNodeInfoLinks } from "../../entities/nodeinfo.ts";
import { cachePlugin } from "../plugins/cache.ts";

const tags = ["well-known"];

export const nodeInfoRoutes = (deps: Deps) =>
  new Elysia({ name: "nodeinfo-routes" })
    .use(cachePlugin)
    .get("/.well-known/nodeinfo", () => presentNodeInfoLinks(deps.config), {
      publicCache: { seconds: 259_200, always: true },
      response: { 200: NodeInfoLinksSchema },
      detail: { summary: "NodeInfo discovery: where the NodeInfo document is", tags },
    })
    .get(
      "/nodeinfo/2.0",
      ({ set }) => {
        set.headers["content-type"] = `application/json; profile="${NODEINFO_SCHEMA}#"`;
        return presentNodeInfo(deps.config, nodeFacts(deps));
      },
      {
        publicCache: { seconds: 1800, always: true },
        response: { 200: NodeInfoSchema },
        detail: { summary: "NodeInfo 2.0: software, usage statistics, open registrations", tags },
      },
    );

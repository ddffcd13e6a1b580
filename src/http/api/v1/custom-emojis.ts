// GET /api/v1/custom_emojis (docs/instance.md#custom-emojis): the emojis shown in pickers, imported by the
// operator with `warren emoji import`. Public, cached as Mastodon's.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { listedEmojis } from "../../../domain/emojis/import.ts";
import { CustomEmojiSchema, presentCustomEmoji } from "../../../entities/custom-emoji.ts";
import { cachePlugin } from "../../plugins/cache.ts";

export const customEmojiRoutes = (deps: Deps) =>
  new Elysia({ name: "custom-emoji-routes", seed: deps.store.dir })
    .use(cachePlugin)
    .get("/api/v1/custom_emojis", () => listedEmojis(deps).map((emoji) => presentCustomEmoji(deps.config, emoji)), {
      publicCache: { seconds: 180, always: true },
      response: { 200: t.Array(CustomEmojiSchema) },
      detail: { summary: "This server's custom emojis (those shown in pickers), by shortcode", tags: ["custom_emojis"] },
    });

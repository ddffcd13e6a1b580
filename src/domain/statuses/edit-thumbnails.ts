// Custom thumbnails given in an edit's media_attributes (`media_attributes[][thumbnail]`, a file or, from
// Mastodon.py, a data: URI), as Mastodon's UpdateStatusService hands `thumbnail` to each attachment: the new
// previews are written before the edit's transaction; the edit then points its attachments at them, and the
// files they replace (or, when the edit fails, the new ones) are removed afterwards.
import type { Deps } from "../../deps.ts";
import { normaliseId } from "../../lib/ids.ts";
import { prepareThumbnail, saveThumbnail } from "../media/attributes.ts";
import { discardFiles } from "../media/cleanup.ts";
import type { MediaRecord } from "../../model/media.ts";

export interface NewThumbnail {
  url: string;
  blurhash: string | null;
}

/** The new thumbnails by attachment id, for the attachments the edited status will carry. */
export async function prepareEditThumbnails(
  deps: Deps,
  media: readonly MediaRecord[],
  attributes: readonly { id: string; thumbnail?: unknown }[],
): Promise<Map<string, NewThumbnail>> {
  const made = new Map<string, NewThumbnail>();
  try {
    for (const asked of attributes) {
      const id = normaliseId(asked.id);
      if (!id || made.has(id) || !media.some((m) => m.id === id)) continue;
      const prepared = await prepareThumbnail(asked.thumbnail);
      if (prepared) made.set(id, { url: await saveThumbnail(deps.config, id, prepared), blurhash: prepared.blurhash });
    }
  } catch (error) {
    await discardEditThumbnails(deps, made);
    throw error;
  }
  return made;
}

export const discardEditThumbnails = (deps: Deps, made: Map<string, NewThumbnail>) =>
  discardFiles(deps.config, [...made.values()].map((t) => t.url));

/** After a committed edit: the thumbnails the new ones replaced. */
export const discardReplacedThumbnails = (deps: Deps, before: readonly MediaRecord[], made: Map<string, NewThumbnail>) =>
  discardFiles(deps.config, before.filter((m) => made.has(m.id)).map((m) => m.thumbnailUrl));

// Incoming Undo (docs/federation.md): one listener for every kind of activity a remote account takes back,
// dispatched on the type of the activity undone to the module that handles that kind.
import { Activity, Announce, Block, EmojiReact, Follow, Like, type Undo } from "@fedify/vocab";
import type { InboxContext } from "@fedify/fedify";
import type { FederationDeps } from "./context.ts";
import { undoFollow } from "./follows.ts";
import { undoBlock } from "./blocks.ts";
import { undoInteraction } from "./inbound-interactions.ts";

/** Undo: dispatched on the type of the activity undone, which only its own actor may undo. */
export async function onUndo(deps: FederationDeps, ctx: InboxContext<void>, activity: Undo): Promise<void> {
  const object = await activity.getObject().catch(() => null);
  if (!(object instanceof Activity) || object.actorId?.href !== activity.actorId?.href) return;
  if (object instanceof Follow) return undoFollow(deps, ctx, object);
  if (object instanceof Block) return undoBlock(deps, ctx, object);
  if (object instanceof Like || object instanceof EmojiReact || object instanceof Announce) return undoInteraction(deps, activity, object);
}

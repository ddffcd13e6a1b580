// The conversations subscribers. A direct status (local or remote) joins its thread's conversation for each
// local participant: its author (read) and the mentioned accounts who would be notified of it (unread), as
// Mastodon adds it in NotifyService (so a recipient who blocks or mutes the author, blocks its domain or
// muted the thread gets nothing). A reply
// joins the conversation of the status it replies to; a first direct status starts one. The `direct` stream
// then gets a `conversation` event per participant. Deletion takes the status out again.
import type { Store } from "../../store/db.ts";
import { newId } from "../../lib/ids.ts";
import {
  conversationOfThread,
  getConversation,
  getThreadEntry,
  putConversation,
  putThreadEntry,
  removeConversation,
  removeThreadEntry,
} from "../../store/conversations.ts";
import { getStatus } from "../../store/statuses.ts";
import { isLocalAccountId } from "../../store/timelines.ts";
import { canSeeStatus, viewerHides } from "../policy/visibility.ts";
import { STREAM_TOPIC, type EmitSignal } from "../streaming/signals.ts";
import { threadMuted } from "../statuses/thread-mute.ts";
import type { ConversationRecord, StatusRecord } from "../../model/statuses.ts";

/** Does this local account take the status into its conversations? */
function receives(store: Store, accountId: string, status: StatusRecord): boolean {
  if (accountId === status.accountId) return true;
  return canSeeStatus(store, accountId, status) && !viewerHides(store, accountId, status.accountId) && !threadMuted(store, accountId, status);
}

/** Idempotent: a status goes into conversations once (its thread entry records that it did). */
export async function addToConversations(store: Store, emit: EmitSignal, statusId: string): Promise<void> {
  const members = await store.write(() => {
    const status = getStatus(store, statusId);
    if (!status || status.deletedAt || status.reblogOfId || status.visibility !== "direct") return [];
    if (getThreadEntry(store, status.id)) return [];
    const parentId = status.inReplyToId;
    const threadId = parentId ? (getThreadEntry(store, parentId)?.threadId ?? parentId) : status.id;
    const participants = [...new Set([status.accountId, ...status.mentionIds])];
    const members: [string, string][] = [];
    for (const accountId of participants) {
      if (!isLocalAccountId(store, accountId) || !receives(store, accountId, status)) continue;
      const record = joined(conversationOfThread(store, accountId, threadId), accountId, threadId, status, participants);
      putConversation(store, record);
      members.push([accountId, record.id]);
    }
    putThreadEntry(store, status.id, { threadId, members });
    return members;
  });
  for (const [accountId, conversationId] of members) emit({ topic: STREAM_TOPIC, kind: "conversation", accountId, conversationId });
}

/** The account's conversation with the status added (a new one when it has none for the thread). */
function joined(
  existing: ConversationRecord | undefined,
  accountId: string,
  threadId: string,
  status: StatusRecord,
  participants: string[],
): ConversationRecord {
  const others = participants.filter((id) => id !== accountId);
  const base = existing ?? { v: 1 as const, id: newId(), accountId, threadId, participantIds: [], statusIds: [], lastStatusId: status.id, unread: false };
  const statusIds = [...base.statusIds, status.id].sort();
  return {
    ...base,
    participantIds: [...new Set([...base.participantIds, ...others])],
    statusIds,
    lastStatusId: statusIds.at(-1)!,
    unread: status.accountId !== accountId,
  };
}

/** Idempotent: takes a deleted status out of the conversations it went into; an emptied one goes. */
export async function removeFromConversations(store: Store, statusId: string): Promise<void> {
  await store.write(() => {
    const entry = getThreadEntry(store, statusId);
    if (!entry) return;
    for (const [accountId, conversationId] of entry.members) {
      const record = getConversation(store, accountId, conversationId);
      if (!record) continue;
      const statusIds = record.statusIds.filter((id) => id !== statusId);
      if (statusIds.length === 0) removeConversation(store, accountId, conversationId);
      else putConversation(store, { ...record, statusIds, lastStatusId: statusIds.at(-1)! });
    }
    removeThreadEntry(store, statusId);
  });
}

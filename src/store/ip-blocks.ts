// IP blocks (Mastodon's IpBlock) in the `moderation` keyspace: `["ip_block", id]` and the network index
// `["ip_block_net", "network/prefix"]`. Every write of a block bumps the version `ib:` (store/versions.ts): the
// per-request check keeps the parsed list until it moves. No rules here: src/domain/admin/ip-blocks.ts.
import { scanPage } from "./paging.ts";
import type { PageQuery } from "../model/paging.ts";
import { END, type Store } from "./handle.ts";
import type { IpBlockRecord } from "../model/moderation.ts";

const IP_BLOCK = "ip_block";
const IP_BLOCK_NET = "ip_block_net";
/** Every block is read on each request (the no_access check): lists are short, and this bounds them. */
export const MAX_IP_BLOCKS = 1000;

export function getIpBlock(store: Store, id: string): IpBlockRecord | undefined {
  return store.db.moderation.get([IP_BLOCK, id]);
}

export function ipBlockByNetwork(store: Store, ip: string): IpBlockRecord | undefined {
  const id: string | undefined = store.db.moderation.get([IP_BLOCK_NET, ip]);
  return id ? getIpBlock(store, id) : undefined;
}

/** Inside a write; `previousIp` when the network changed. */
export function putIpBlock(store: Store, block: IpBlockRecord, previousIp?: string): void {
  if (previousIp && previousIp !== block.ip) store.db.moderation.remove([IP_BLOCK_NET, previousIp]);
  store.db.moderation.put([IP_BLOCK, block.id], block);
  store.db.moderation.put([IP_BLOCK_NET, block.ip], block.id);
}

/** Inside a write. */
export function removeIpBlock(store: Store, block: IpBlockRecord): void {
  store.db.moderation.remove([IP_BLOCK, block.id]);
  store.db.moderation.remove([IP_BLOCK_NET, block.ip]);
}

export function pageIpBlocks(store: Store, query: PageQuery): IpBlockRecord[] {
  return scanPage<IpBlockRecord>(store.db.moderation, [IP_BLOCK], query).map((row) => row.value);
}

export function countIpBlocks(store: Store): number {
  return store.db.moderation.getKeysCount({ start: [IP_BLOCK], end: [IP_BLOCK, END], limit: MAX_IP_BLOCKS + 1 });
}

/** Every block (at most MAX_IP_BLOCKS, which creation keeps to). */
export function allIpBlocks(store: Store): IpBlockRecord[] {
  const out: IpBlockRecord[] = [];
  for (const { value } of store.db.moderation.getRange({ start: [IP_BLOCK], end: [IP_BLOCK, END], limit: MAX_IP_BLOCKS })) out.push(value);
  return out;
}

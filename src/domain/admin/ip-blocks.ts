// IP blocks (Mastodon's IpBlock): a network (an address, or address/prefix) and what it may not do:
// `sign_up_requires_approval` (sign-ups from it wait for approval), `sign_up_block` (sign-ups from it are
// refused) or `no_access` (every request from it is refused); optionally until `expires_at`. Where several
// cover an address, the strictest applies.
import ipaddr from "ipaddr.js";
import { isIP } from "node:net";
import type { Deps } from "../../deps.ts";
import { NotFound, Unprocessable } from "../../lib/errors.ts";
import { newId, normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import {
  allIpBlocks,
  countIpBlocks,
  getIpBlock,
  ipBlockByNetwork,
  MAX_IP_BLOCKS,
  pageIpBlocks,
  putIpBlock,
  removeIpBlock,
} from "../../store/ip-blocks.ts";
import type { PageQuery } from "../../model/paging.ts";
import { insideWrite, readVersions, versionName, versionsUnchanged, type Versions } from "../../store/versions.ts";
import type { IpBlockRecord, IpBlockSeverity } from "../../model/moderation.ts";

export const IP_BLOCKS_LIMIT = 100;
export const IP_BLOCK_SEVERITIES: readonly IpBlockSeverity[] = ["sign_up_requires_approval", "sign_up_block", "no_access"];
const MAX_COMMENT = 1000;

/** "a.b.c.d" or "a.b.c.d/n" (IPv6 too) as "network/prefix", or null. */
export function normaliseNetwork(raw: string): string | null {
  const text = raw.trim();
  const [address = "", prefix] = text.split("/");
  if (!isIP(address) || (prefix !== undefined && !/^\d{1,3}$/.test(prefix))) return null;
  const parsed = ipaddr.process(address);
  const bits = prefix === undefined ? (parsed.kind() === "ipv4" ? 32 : 128) : Number(prefix);
  if (bits > (parsed.kind() === "ipv4" ? 32 : 128)) return null;
  const network = parsed.kind() === "ipv4" ? ipaddr.IPv4.networkAddressFromCIDR(`${parsed}/${bits}`) : ipaddr.IPv6.networkAddressFromCIDR(`${parsed}/${bits}`);
  return `${network.toString()}/${bits}`;
}

export interface IpBlockInput {
  ip?: string;
  severity?: string;
  comment?: string;
  /** seconds from now; null or 0: never */
  expiresIn?: number | null;
}

function checked(input: IpBlockInput, creating: boolean, now: number) {
  const problems: string[] = [];
  const ip = input.ip === undefined ? undefined : normaliseNetwork(input.ip);
  if (creating && !input.ip?.trim()) problems.push("Ip can't be blank");
  else if (input.ip !== undefined && !ip) problems.push("Ip is invalid");
  const severity = input.severity === undefined ? undefined : IP_BLOCK_SEVERITIES.find((s) => s === input.severity);
  if (creating && !input.severity) problems.push("Severity can't be blank");
  else if (input.severity !== undefined && !severity) problems.push("Severity is not included in the list");
  if (input.comment !== undefined && [...input.comment].length > MAX_COMMENT) problems.push(`Comment is too long (maximum is ${MAX_COMMENT} characters)`);
  if (input.expiresIn !== undefined && input.expiresIn !== null && (!Number.isInteger(input.expiresIn) || input.expiresIn < 0)) {
    problems.push("Expires in is invalid");
  }
  if (problems.length) throw new Unprocessable(`Validation failed: ${problems.join(", ")}`);
  const expiresAt = input.expiresIn === undefined ? undefined : input.expiresIn ? now + input.expiresIn * 1000 : null;
  return { ip: ip ?? undefined, severity, comment: input.comment, expiresAt };
}

export async function createIpBlock(deps: Pick<Deps, "store">, input: IpBlockInput): Promise<IpBlockRecord> {
  const { store } = deps;
  const now = Date.now();
  const fields = checked(input, true, now);
  return store.write(() => {
    if (ipBlockByNetwork(store, fields.ip!)) throw new Unprocessable("Validation failed: Ip has already been taken");
    if (countIpBlocks(store) >= MAX_IP_BLOCKS) throw new Unprocessable(`Validation failed: at most ${MAX_IP_BLOCKS} IP blocks`);
    const block: IpBlockRecord = {
      v: 1, id: newId(now), ip: fields.ip!, severity: fields.severity!, comment: fields.comment ?? "", createdAt: now, expiresAt: fields.expiresAt ?? null,
    };
    putIpBlock(store, block);
    return block;
  });
}

export function findIpBlock(store: Store, rawId: string): IpBlockRecord {
  const id = normaliseId(rawId);
  const block = id ? getIpBlock(store, id) : undefined;
  if (!block) throw new NotFound();
  return block;
}

export async function updateIpBlock(deps: Pick<Deps, "store">, rawId: string, input: IpBlockInput): Promise<IpBlockRecord> {
  const { store } = deps;
  const id = findIpBlock(store, rawId).id;
  const fields = checked(input, false, Date.now());
  return store.write(() => {
    const current = getIpBlock(store, id);
    if (!current) throw new NotFound();
    const taken = fields.ip ? ipBlockByNetwork(store, fields.ip) : undefined;
    if (taken && taken.id !== id) throw new Unprocessable("Validation failed: Ip has already been taken");
    const next: IpBlockRecord = {
      ...current,
      ip: fields.ip ?? current.ip,
      severity: fields.severity ?? current.severity,
      comment: fields.comment ?? current.comment,
      expiresAt: fields.expiresAt === undefined ? current.expiresAt : fields.expiresAt,
    };
    putIpBlock(store, next, current.ip);
    return next;
  });
}

export async function deleteIpBlock(deps: Pick<Deps, "store">, rawId: string): Promise<void> {
  const { store } = deps;
  const id = findIpBlock(store, rawId).id;
  await store.write(() => {
    const block = getIpBlock(store, id);
    if (!block) throw new NotFound();
    removeIpBlock(store, block);
  });
}

export const ipBlocksPage = (store: Store, query: PageQuery) => pageIpBlocks(store, query);

interface ParsedBlock {
  range: [ipaddr.IPv4 | ipaddr.IPv6, number];
  strictness: number;
  expiresAt: number | null;
}

/**
 * Each store's blocks, parsed, with the version `ib:` they were read at. Every request checks it against the
 * version log, whose head one read per synchronous run serves to every cache check of that run.
 */
const parsedBlocks = new WeakMap<Store, { read: Versions; blocks: ParsedBlock[] }>();

function blocksOf(store: Store): ParsedBlock[] {
  const kept = parsedBlocks.get(store);
  if (kept && versionsUnchanged(store, kept.read)) return kept.blocks;
  const read = readVersions(store, [versionName.ipBlocks()]);
  const blocks = allIpBlocks(store).map((block) => ({
    range: ipaddr.parseCIDR(block.ip),
    strictness: IP_BLOCK_SEVERITIES.indexOf(block.severity),
    expiresAt: block.expiresAt,
  }));
  // Read inside a write, the list may hold what that write has not committed yet: not kept.
  if (!insideWrite(store)) parsedBlocks.set(store, { read, blocks });
  return blocks;
}

/** The strictest severity of the unexpired blocks covering `address`, or null (also for an unreadable one). */
export function ipBlockSeverityFor(store: Store, address: string | null, now = Date.now()): IpBlockSeverity | null {
  return severityAmong(blocksOf(store), address, now);
}

/**
 * Whether every request from the client is refused (a `no_access` block covers it). `addressOf` is only asked
 * when some block exists: with none, the check is a look at the blocks' version.
 */
export function refusedEverything(store: Store, addressOf: () => string | null, now = Date.now()): boolean {
  const blocks = blocksOf(store);
  return blocks.length > 0 && severityAmong(blocks, addressOf(), now) === "no_access";
}

function severityAmong(blocks: ParsedBlock[], address: string | null, now: number): IpBlockSeverity | null {
  if (blocks.length === 0 || !address || !isIP(address)) return null;
  const parsed = ipaddr.process(address);
  let worst = -1;
  for (const { range, strictness, expiresAt } of blocks) {
    if (expiresAt !== null && expiresAt <= now) continue;
    if (range[0].kind() === parsed.kind() && parsed.match(range) && strictness > worst) worst = strictness;
  }
  return worst < 0 ? null : IP_BLOCK_SEVERITIES[worst]!;
}

// Avatar and header images of local accounts (PATCH update_credentials, DELETE /api/v1/profile/avatar|header).
// An upload is checked by its bytes, re-encoded (media/images.ts) and saved under a new random name before
// the account record points to it; the file it replaces is deleted only after that record change commits.
// So a failed request changes nothing, and a crash in between leaves at most an unreferenced file.
// Animated GIF/WebP keep their first frame: `avatar` and `avatar_static` are the same still image.
import type { Deps } from "../../deps.ts";
import { NotFound } from "../../lib/errors.ts";
import { UploadedFile } from "../../lib/uploaded-file.ts";
import { encodeImage, inspectImage, UnsupportedImage, type EncodedImage, type Geometry } from "../../media/images.ts";
import { deleteMediaFile, saveMediaFile } from "../../media/storage.ts";
import { getAccount, getUser, putAccount } from "../../store/accounts.ts";
import type { UserViewer } from "../auth/viewer.ts";
import { ACCOUNT_LIMITS, MEDIA_LIMITS } from "../limits.ts";
import type { Problems } from "./validation.ts";
import { recordEvent } from "../events.ts";
import type { AccountRecord, UserRecord } from "../../model/accounts.ts";

export type ProfileImageKind = "avatar" | "header";
export type ProfileImages = Partial<Record<ProfileImageKind, EncodedImage>>;
export type SavedProfileImages = Partial<Record<ProfileImageKind, string>>;

const RULES: Record<ProfileImageKind, { sizeLimit: number; geometry: Geometry; folder: string; field: "avatarUrl" | "headerUrl" }> = {
  avatar: { sizeLimit: ACCOUNT_LIMITS.avatarSizeLimit, geometry: { square: ACCOUNT_LIMITS.avatarSide }, folder: "avatars", field: "avatarUrl" },
  header: { sizeLimit: ACCOUNT_LIMITS.headerSizeLimit, geometry: { maxPixels: ACCOUNT_LIMITS.headerMaxPixels }, folder: "headers", field: "headerUrl" },
};

/** Rails' number_to_human_size for whole megabytes, as in Paperclip's "must be less than 8 MB". */
const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/**
 * Checks and re-encodes one upload. `undefined` or "" (a form's empty file field) mean no change; any problem
 * is added to `problems` under the parameter's name and nothing is answered.
 */
export async function prepareProfileImage(kind: ProfileImageKind, upload: unknown, problems: Problems): Promise<EncodedImage | undefined> {
  if (upload === undefined || upload === "") return undefined;
  const rule = RULES[kind];
  if (!(upload instanceof UploadedFile)) {
    problems.add(kind, "ERR_INVALID", "content type is invalid");
    return undefined;
  }
  if (upload.size >= rule.sizeLimit) {
    problems.add(kind, "ERR_LESS_THAN", `file size must be less than ${megabytes(rule.sizeLimit)}`);
    return undefined;
  }
  try {
    const bytes = await upload.bytes();
    const info = await inspectImage(bytes);
    if (info.width * info.height > MEDIA_LIMITS.imageMatrixLimit) {
      problems.add(kind, "ERR_INVALID", `dimensions are too large (maximum is ${MEDIA_LIMITS.imageMatrixLimit} pixels)`);
      return undefined;
    }
    return await encodeImage(bytes, info, rule.geometry, MEDIA_LIMITS.imageMatrixLimit);
  } catch (error) {
    if (!(error instanceof UnsupportedImage)) throw error;
    problems.add(kind, "ERR_INVALID", "content type is invalid");
    return undefined;
  }
}

/** An image from another server for a remote account's avatar or header: re-encoded as local ones are
 * (domain/media/remote-cache.ts); null if it is not an image we take. */
export async function encodeRemoteProfileImage(kind: ProfileImageKind, bytes: Uint8Array): Promise<EncodedImage | null> {
  try {
    const info = await inspectImage(bytes);
    if (info.width * info.height > MEDIA_LIMITS.imageMatrixLimit) return null;
    return await encodeImage(bytes, info, RULES[kind].geometry, MEDIA_LIMITS.imageMatrixLimit);
  } catch (error) {
    if (error instanceof UnsupportedImage) return null;
    throw error;
  }
}

/** Saves prepared images (before the record change); if one fails, the others are removed again. */
export async function saveProfileImages(deps: Deps, accountId: string, images: ProfileImages): Promise<SavedProfileImages> {
  const saved: SavedProfileImages = {};
  try {
    for (const kind of ["avatar", "header"] as const) {
      const image = images[kind];
      if (image) saved[kind] = await saveMediaFile(deps.config, ["accounts", RULES[kind].folder, accountId], image.extension, image.data);
    }
  } catch (error) {
    await discardProfileImages(deps, Object.values(saved));
    throw error;
  }
  return saved;
}

/** Inside a write: points `next` at the saved images; answers the paths they replace. */
export function applyProfileImages(previous: AccountRecord, next: AccountRecord, saved: SavedProfileImages): (string | null)[] {
  const replaced: (string | null)[] = [];
  for (const kind of ["avatar", "header"] as const) {
    const path = saved[kind];
    if (path === undefined) continue;
    next[RULES[kind].field] = path;
    replaced.push(previous[RULES[kind].field]);
  }
  return replaced;
}

/** Deletes files no record points to any more (best effort; remote URLs are left alone). */
export async function discardProfileImages(deps: Deps, paths: readonly (string | null)[]): Promise<void> {
  await Promise.all(paths.map((path) => deleteMediaFile(deps.config, path)));
}

/** DELETE /api/v1/profile/avatar|header: back to the default image. */
export async function removeProfileImage(deps: Deps, viewer: UserViewer, kind: ProfileImageKind): Promise<{ account: AccountRecord; user: UserRecord }> {
  const field = RULES[kind].field;
  const { account, user, replaced } = await deps.store.write(() => {
    const account = getAccount(deps.store, viewer.account.id);
    const user = getUser(deps.store, viewer.account.id);
    if (!account || !user) throw new NotFound();
    if (account[field] === null) return { account, user, replaced: null };
    const next: AccountRecord = { ...account, [field]: null };
    putAccount(deps.store, next);
    recordEvent(deps, "account.updated", { accountId: next.id });
    return { account: next, user, replaced: account[field] };
  });
  await discardProfileImages(deps, [replaced]);
  return { account, user };
}

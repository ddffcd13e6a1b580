// GET /api/v1/accounts/verify_credentials, PATCH /api/v1/accounts/update_credentials and DELETE
// /api/v1/profile/avatar|header: the signed-in user's own account with its `source` and `role`.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import { updateCredentials, type ProfileUpdate } from "../../../../domain/accounts/update.ts";
import { removeProfileImage, type ProfileImageKind } from "../../../../domain/accounts/profile-images.ts";
import { ACCOUNT_LIMITS } from "../../../../domain/limits.ts";
import { credentialExtras } from "../../../../domain/accounts/read.ts";
import { credentialAccountBytes } from "../../../cache/credentials.ts";
import { CredentialAccountSchema, presentCredentialAccount } from "../../../../entities/account.ts";
import type { UserViewer } from "../../../../domain/auth/viewer.ts";
import { authPlugin } from "../../../plugins/auth.ts";
import { authErrors, ErrorBody, Flag, toBool, type FlagValue } from "../../../schemas.ts";
import { uploadLimit } from "../../../plugins/body-limits.ts";
import { releaseUploads } from "../../../plugins/params.ts";

// Both images may come in one request, with the text fields beside them.
const UPDATE_BODY_LIMIT = ACCOUNT_LIMITS.avatarSizeLimit + ACCOUNT_LIMITS.headerSizeLimit + 1024 * 1024;

const UpdateBody = uploadLimit(t.Object({
  display_name: t.Optional(t.String({ description: `At most ${ACCOUNT_LIMITS.maxDisplayNameLength} characters` })),
  note: t.Optional(t.String({ description: `Plain-text bio, at most ${ACCOUNT_LIMITS.maxNoteLength} characters (a URL counts 23)` })),
  locked: t.Optional(Flag({ description: "Follow requests must be approved" })),
  bot: t.Optional(Flag({ description: "The account is automated" })),
  discoverable: t.Optional(Flag({ description: "Shown in the directory and suggestions" })),
  indexable: t.Optional(Flag({ description: "Public posts may be found by full-text search" })),
  hide_collections: t.Optional(Flag({ description: "Hide followers and following lists" })),
  // Checked by the domain: Elysia's body normaliser would turn a wrong-typed value into empty fields.
  fields_attributes: t.Optional(
    t.Any({
      description: `Profile fields: fields_attributes[0][name]=…&fields_attributes[0][value]=…, or a JSON array/object of {name, value}; at most ${ACCOUNT_LIMITS.maxProfileFields}, name and value at most ${ACCOUNT_LIMITS.profileFieldNameLimit} characters`,
    }),
  ),
  source: t.Optional(
    t.Object({
      privacy: t.Optional(t.String({ description: "Default post visibility: public, unlisted or private" })),
      sensitive: t.Optional(Flag({ description: "Mark media as sensitive by default" })),
      language: t.Optional(t.String({ description: "Default post language (ISO 639 code)" })),
      quote_policy: t.Optional(t.String({ description: "Who may quote your new posts by default: public, followers or nobody" })),
    }),
  ),
  // Checked by the domain from the file's bytes, so that a wrong upload is Mastodon's 422, not a schema error.
  avatar: t.Optional(
    t.Any({
      description: `JPEG, PNG, GIF, WebP or AVIF image (multipart), less than ${ACCOUNT_LIMITS.avatarSizeLimit} bytes; cropped to a centred square of at most ${ACCOUNT_LIMITS.avatarSide} px`,
    }),
  ),
  header: t.Optional(
    t.Any({
      description: `JPEG, PNG, GIF, WebP or AVIF image (multipart), less than ${ACCOUNT_LIMITS.headerSizeLimit} bytes; shrunk to at most ${ACCOUNT_LIMITS.headerMaxPixels} pixels`,
    }),
  ),
  avatar_description: t.Optional(t.String({ description: `At most ${ACCOUNT_LIMITS.maxAvatarDescriptionLength} characters` })),
  header_description: t.Optional(t.String({ description: `At most ${ACCOUNT_LIMITS.maxHeaderDescriptionLength} characters` })),
  attribution_domains: t.Optional(
    t.Union([t.Array(t.String()), t.String()], {
      description: "Websites allowed to credit this account as author (host names, at most 10; a string: one per line)",
    }),
  ),
}), UPDATE_BODY_LIMIT);

type Body = typeof UpdateBody.static;

const flag = (value: FlagValue | undefined) => (value === undefined ? undefined : toBool(value));

function profileUpdate(body: Body): ProfileUpdate {
  return {
    displayName: body.display_name,
    note: body.note,
    locked: flag(body.locked),
    bot: flag(body.bot),
    discoverable: flag(body.discoverable),
    indexable: flag(body.indexable),
    hideCollections: flag(body.hide_collections),
    fields: body.fields_attributes,
    avatar: body.avatar,
    header: body.header,
    avatarDescription: body.avatar_description,
    headerDescription: body.header_description,
    privacy: body.source?.privacy,
    quotePolicy: body.source?.quote_policy,
    sensitive: flag(body.source?.sensitive),
    language: body.source?.language,
    attributionDomains: body.attribution_domains,
  };
}

export const credentialsRoutes = (deps: Deps) =>
  new Elysia({ name: "accounts-credentials-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .get(
      "/api/v1/accounts/verify_credentials",
      ({ viewer, set }) => credentialAccountBytes(deps, viewer, set),
      {
        auth: ["profile", "read:accounts"],
        // Sent as kept bytes, checked where they are made (http/cache/credentials.ts).
        response: { 200: { ...CredentialAccountSchema, noValidate: true }, ...authErrors },
        detail: { summary: "The signed-in user's account, with source and role", tags: ["accounts"] },
      },
    )
    .patch(
      "/api/v1/accounts/update_credentials",
      async ({ viewer, body }) => {
        const { account, user } = await updateCredentials(deps, viewer, profileUpdate(body));
        return presentCredentialAccount(deps.config, account, user, credentialExtras(deps, account.id));
      },
      {
        auth: ["write:accounts"],
        body: UpdateBody,
        afterHandle: releaseUploads,
        response: { 200: CredentialAccountSchema, 400: ErrorBody, ...authErrors },
        detail: { summary: "Update the signed-in user's profile and posting defaults (JSON, form or multipart)", tags: ["accounts"] },
      },
    )
    .delete("/api/v1/profile/avatar", ({ viewer }) => withoutImage(deps, viewer, "avatar"), {
      auth: ["write:accounts"],
      response: { 200: CredentialAccountSchema, ...authErrors },
      detail: { summary: "Remove the signed-in user's avatar (back to the default image)", tags: ["accounts"] },
    })
    .delete("/api/v1/profile/header", ({ viewer }) => withoutImage(deps, viewer, "header"), {
      auth: ["write:accounts"],
      response: { 200: CredentialAccountSchema, ...authErrors },
      detail: { summary: "Remove the signed-in user's header (back to the default image)", tags: ["accounts"] },
    });

async function withoutImage(deps: Deps, viewer: UserViewer, kind: ProfileImageKind) {
  const { account, user } = await removeProfileImage(deps, viewer, kind);
  return presentCredentialAccount(deps.config, account, user, credentialExtras(deps, account.id));
}

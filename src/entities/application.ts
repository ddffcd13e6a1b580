// Application entities (API.md §2.2, §2.3): Application (verify_credentials), CredentialApplication (once, at
// registration, with the client secret) and the short form nested in statuses.
import { t, type Static } from "elysia";
import { Int } from "./integer.ts";
import { publicId } from "../lib/ids.ts";
import { Nullable } from "./nullable.ts";
import type { AppRecord } from "../model/auth.ts";

export const ApplicationSchema = t.Object(
  {
    id: t.String(),
    name: t.String(),
    website: Nullable(t.String()),
    scopes: t.Array(t.String()),
    redirect_uris: t.Array(t.String()),
    redirect_uri: t.String({ description: "Deprecated: the redirect URIs joined by newlines" }),
    vapid_key: t.String({ description: "Deprecated: the instance's Web Push (VAPID) public key, as configuration.vapid.public_key of the v2 instance" }),
  },
  { description: "OAuth application" },
);

export const CredentialApplicationSchema = t.Object(
  {
    ...ApplicationSchema.properties,
    client_id: t.String(),
    client_secret: t.String({ description: "Shown once; store it" }),
    client_secret_expires_at: Int({ description: "Always 0: secrets do not expire" }),
  },
  { description: "OAuth application with its client credentials" },
);

/** `Status.application`: name and optional website of the app that posted. */
export const StatusApplicationSchema = t.Object({ name: t.String(), website: Nullable(t.String()) });

export type Application = Static<typeof ApplicationSchema>;
export type CredentialApplication = Static<typeof CredentialApplicationSchema>;

export function presentApplication(app: AppRecord, vapidKey: string): Application {
  return {
    id: publicId(app.id),
    name: app.name,
    website: app.website,
    scopes: app.scopes,
    redirect_uris: app.redirectUris,
    redirect_uri: app.redirectUris.join("\n"),
    vapid_key: vapidKey,
  };
}

export function presentCredentialApplication(app: AppRecord, clientSecret: string, vapidKey: string): CredentialApplication {
  return {
    ...presentApplication(app, vapidKey),
    client_id: app.clientId,
    client_secret: clientSecret,
    client_secret_expires_at: 0,
  };
}

export function presentStatusApplication(app: AppRecord): Static<typeof StatusApplicationSchema> {
  return { name: app.name, website: app.website };
}

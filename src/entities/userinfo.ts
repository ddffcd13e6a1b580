// OpenID Connect style userinfo (API.md §2.7): GET/POST /oauth/userinfo.
import { t, type Static } from "elysia";
import type { Config } from "../config.ts";
import { mediaUrl } from "../media/storage.ts";
import type { AccountRecord } from "../model/accounts.ts";

export const UserinfoSchema = t.Object(
  {
    iss: t.String({ description: "The instance's root URL" }),
    sub: t.String({ description: "ActivityPub actor URI" }),
    name: t.String(),
    preferred_username: t.String(),
    profile: t.String({ description: "HTML profile URL" }),
    picture: t.String({ description: "Avatar URL" }),
  },
  { description: "Profile of the token's user" },
);

type Userinfo = Static<typeof UserinfoSchema>;

export function presentUserinfo(config: Config, account: AccountRecord): Userinfo {
  const baseUrl = config.url;
  const avatar = account.avatarUrl ?? "/avatars/original/missing.png";
  return {
    iss: `${baseUrl}/`,
    sub: account.uri,
    name: account.displayName || account.username,
    preferred_username: account.username,
    profile: account.url,
    picture: mediaUrl(config, avatar)!,
  };
}

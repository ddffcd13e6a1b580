// Token entity (API.md §4.14): what /oauth/token and POST /api/v1/accounts answer.
import { t, type Static } from "elysia";
import { Int } from "./integer.ts";
import type { IssuedToken } from "../domain/oauth/tokens.ts";

export const TokenSchema = t.Object(
  {
    access_token: t.String(),
    token_type: t.Literal("Bearer"),
    scope: t.String({ description: "Space-separated granted scopes" }),
    created_at: Int({ description: "Unix seconds" }),
  },
  { description: "OAuth access token" },
);

export type Token = Static<typeof TokenSchema>;

export function presentToken(token: IssuedToken): Token {
  return {
    access_token: token.raw,
    token_type: "Bearer",
    scope: token.record.scopes.join(" "),
    created_at: Math.floor(token.record.createdAt / 1000),
  };
}

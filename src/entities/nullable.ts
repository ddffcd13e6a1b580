// `T | null` in response schemas, as Mastodon's nullable fields are.
import { t, type TSchema } from "elysia";

export const Nullable = <T extends TSchema>(schema: T) => t.Union([schema, t.Null()]);

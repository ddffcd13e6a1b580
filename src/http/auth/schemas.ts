// TypeBox schemas of the /auth pages. Form fields are optional strings: anything else (arrays, nested values)
// is dropped before validation (onlyStrings), so a hostile form reads as missing fields and gets the page
// again with a message, never a JSON 422.
import { t } from "elysia";
import { onlyStrings } from "../oauth/request.ts";

export const Html = (description: string) => t.String({ description: `HTML page: ${description}` });
export const Redirect = (description: string) => t.String({ description: `Redirect (303): ${description}` });
export const Field = (description: string) => t.Optional(t.String({ description }));

export const CSRF_FIELD = { authenticity_token: Field("CSRF token from the page's form") };

export const onlyStringQuery = (ctx: { query: unknown }) => void (ctx.query = onlyStrings(ctx.query));
export const onlyStringBody = (ctx: { body: unknown }) => void (ctx.body = onlyStrings(ctx.body));

// A Date header on every answer (RFC 9110 §6.6.1: an origin server with a clock sends one). Bun does not add
// it, and clients use it: Mastodon's apps check the server's clock with `HEAD /`, and HTTP signatures are
// judged against it. Formatted once per second, not per request.
import { Elysia } from "elysia";

let second = -1;
let formatted = "";

export function httpDate(now = Date.now()): string {
  const current = Math.floor(now / 1000);
  if (current !== second) {
    second = current;
    formatted = new Date(current * 1000).toUTCString();
  }
  return formatted;
}

export const datePlugin = new Elysia({ name: "warren-date" }).onRequest(({ set }) => {
  set.headers.date = httpDate();
});

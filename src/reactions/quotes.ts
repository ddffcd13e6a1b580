// What follows a quote's approval changing (domain/quotes): the quoting status renders anew in the streams,
// and the quoted author's decision travels to the other server (federation/quotes.ts).
import type { Subscriber } from "../domain/events.ts";
import { sendAuthorizationDelete, sendQuoteUpdate } from "../federation/senders.ts";
import { on, streamStatusUpdate } from "./table.ts";

export const QUOTE_REACTIONS: readonly Subscriber<any>[] = [
  // The quoted author revoked a quote: a QuoteAuthorization we gave a remote quote is deleted there
  streamStatusUpdate("streaming.quote_revoked", "quote.revoked"),
  on({ name: "federation.quote_revoked", on: "quote.revoked", lane: "network", localOnly: true, run: (ctx, event) => sendAuthorizationDelete(ctx, event.payload) }),
  // A pending quote was accepted or rejected
  streamStatusUpdate("streaming.quote_settled", "quote.settled"),
  on({ name: "federation.quote_accepted", on: "quote.settled", lane: "network", localOnly: true, run: (ctx, event) => sendQuoteUpdate(ctx, event.payload) }),
  // Its author changed who may quote it
  streamStatusUpdate("streaming.quote_policy_changed", "status.quote_policy_changed"),
];

// Federation counters for /metrics (docs/metrics.md): delivery POSTs by result and incoming activities by
// type. Both are counted where the work runs (a job worker thread, usually) and summed across threads by
// lib/metrics/threads.ts.
import { federationDeliveries, federationInbox } from "../lib/metrics/counters.ts";

export const DELIVERY_RESULT = {
  success: federationDeliveries.cell("success"),
  client_error: federationDeliveries.cell("client_error"),
  server_error: federationDeliveries.cell("server_error"),
  network_error: federationDeliveries.cell("network_error"),
  refused: federationDeliveries.cell("refused"),
};

/** Counts a delivery POST's answer (or its failure to get one) and passes it on unchanged. */
export async function countDelivery(answer: Promise<Response>): Promise<Response> {
  let response: Response;
  try {
    response = await answer;
  } catch (error) {
    DELIVERY_RESULT.network_error.value++;
    throw error;
  }
  const cell = response.status >= 500 ? DELIVERY_RESULT.server_error : response.status >= 400 ? DELIVERY_RESULT.client_error : DELIVERY_RESULT.success;
  cell.value++;
  return response;
}

/** The activity types with a series of their own; anything else a peer sends is counted as "other". */
const KNOWN_TYPES = new Set([
  "Accept", "Add", "Announce", "Block", "Create", "Delete", "EmojiReact", "Flag", "Follow", "Like", "Move",
  "QuoteRequest", "Reject", "Remove", "TentativeAccept", "Undo", "Update",
]);

export function countInboxActivity(activity: unknown): void {
  const type = activity && typeof activity === "object" ? (activity as { type?: unknown }).type : undefined;
  federationInbox.cell(typeof type === "string" && KNOWN_TYPES.has(type) ? type : "other").value++;
}

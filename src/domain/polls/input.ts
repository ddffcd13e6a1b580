// A poll as a client asks for one (POST and PUT /api/v1/statuses `poll[…]`), checked against the limits the
// instance reports (domain/limits.ts POLL_LIMITS, configuration.polls).
import { Unprocessable } from "../../lib/errors.ts";
import { POLL_LIMITS } from "../limits.ts";

export interface PollInput {
  options?: string[];
  expiresIn?: string | number;
  multiple?: boolean;
  hideTotals?: boolean;
}

export interface PollDraft {
  options: string[];
  expiresInSeconds: number;
  multiple: boolean;
  hideTotals: boolean;
}

/** The poll's settings, or 422 with Mastodon's reasons. Options are kept as typed (trimmed). */
export function pollDraft(input: PollInput): PollDraft {
  const options = (input.options ?? []).map((option) => option.trim());
  if (options.length < 2) throw new Unprocessable("Validation failed: Poll must have at least 2 options");
  if (options.length > POLL_LIMITS.maxOptions) throw new Unprocessable(`Validation failed: Poll can't contain more than ${POLL_LIMITS.maxOptions} items`);
  if (options.some((option) => option === "")) throw new Unprocessable("Validation failed: Poll options can't be blank");
  if (options.some((option) => [...option].length > POLL_LIMITS.maxCharactersPerOption)) {
    throw new Unprocessable(`Validation failed: Poll options can't be longer than ${POLL_LIMITS.maxCharactersPerOption} characters`);
  }
  if (new Set(options).size !== options.length) throw new Unprocessable("Validation failed: Poll options must be unique");
  const raw = typeof input.expiresIn === "string" ? input.expiresIn.trim() : input.expiresIn;
  const seconds = typeof raw === "number" ? raw : raw && /^\d{1,12}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(seconds)) throw new Unprocessable("Validation failed: Poll expiration must be a whole number of seconds");
  if (seconds < POLL_LIMITS.minExpiration) throw new Unprocessable("Validation failed: Poll expiration date is too soon");
  if (seconds > POLL_LIMITS.maxExpiration) throw new Unprocessable("Validation failed: Poll expiration date is too far in the future");
  return { options, expiresInSeconds: seconds, multiple: input.multiple ?? false, hideTotals: input.hideTotals ?? false };
}

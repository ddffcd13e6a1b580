// src/domain/polls/input.ts without an app: a poll as a client asks for one, checked against the limits the
// instance reports, with Mastodon's 422 reasons.
import { expect, test } from "bun:test";
import { pollDraft, type PollInput } from "../../../src/domain/polls/input.ts";
import { POLL_LIMITS } from "../../../src/domain/limits.ts";

const answer = (input: PollInput) => {
  try {
    return pollDraft(input);
  } catch (error) {
    return { status: (error as { status?: number }).status, error: (error as Error).message };
  }
};

test("a valid poll: options trimmed, the expiry as a number or a string of digits, flags defaulting to false", () => {
  expect(answer({ options: [" tea ", "coffee"], expiresIn: "3600" })).toEqual({ options: ["tea", "coffee"], expiresInSeconds: 3600, multiple: false, hideTotals: false });
  expect(answer({ options: ["a", "b"], expiresIn: 300, multiple: true, hideTotals: true })).toMatchObject({ expiresInSeconds: 300, multiple: true, hideTotals: true });
});

test("options: at least two, at most the limit, none blank, none too long, all different", () => {
  expect(answer({ options: ["only"], expiresIn: 3600 })).toEqual({ status: 422, error: "Validation failed: Poll must have at least 2 options" });
  expect(answer({ expiresIn: 3600 })).toMatchObject({ status: 422 });
  const tooMany = Array.from({ length: POLL_LIMITS.maxOptions + 1 }, (_, i) => `o${i}`);
  expect(answer({ options: tooMany, expiresIn: 3600 })).toMatchObject({ status: 422, error: expect.stringContaining("more than") });
  expect(answer({ options: ["a", "   "], expiresIn: 3600 })).toMatchObject({ status: 422, error: expect.stringContaining("blank") });
  expect(answer({ options: ["a", "x".repeat(POLL_LIMITS.maxCharactersPerOption + 1)], expiresIn: 3600 })).toMatchObject({ status: 422, error: expect.stringContaining("longer") });
  expect(answer({ options: ["same", " same"], expiresIn: 3600 })).toMatchObject({ status: 422, error: expect.stringContaining("unique") });
});

test("an option's length counts characters, not UTF-16 units", () => {
  const emojis = "😀".repeat(POLL_LIMITS.maxCharactersPerOption);
  expect(answer({ options: [emojis, "b"], expiresIn: 3600 })).toMatchObject({ options: [emojis, "b"] });
});

test("the expiry: a whole number of seconds, within the limits", () => {
  for (const expiresIn of ["1.5", "abc", "", "-300", 1.5, Number.NaN, "1e5", undefined]) {
    expect([expiresIn, answer({ options: ["a", "b"], expiresIn })]).toMatchObject([expiresIn, { status: 422, error: expect.stringContaining("whole number") }]);
  }
  expect(answer({ options: ["a", "b"], expiresIn: POLL_LIMITS.minExpiration - 1 })).toMatchObject({ error: expect.stringContaining("too soon") });
  expect(answer({ options: ["a", "b"], expiresIn: POLL_LIMITS.maxExpiration + 1 })).toMatchObject({ error: expect.stringContaining("too far") });
  expect(answer({ options: ["a", "b"], expiresIn: "9".repeat(13) })).toMatchObject({ error: expect.stringContaining("whole number") });
});

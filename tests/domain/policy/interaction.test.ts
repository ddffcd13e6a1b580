// src/domain/policy/interaction.ts without an app: who may delete a status (the author or a moderator); anyone
// else, and a deleted or missing status, gets 404 (Mastodon looks the id up among the caller's own statuses).
import { describe, expect, test } from "bun:test";
import { assertCanDelete } from "../../../src/domain/policy/interaction.ts";
import type { StatusRecord } from "../../../src/model/statuses.ts";

const status = (fields: Partial<StatusRecord> = {}) => ({ id: "1", accountId: "author", visibility: "public", deletedAt: null, ...fields }) as unknown as StatusRecord;
const statusOf = (fn: () => void) => {
  try {
    fn();
    return 200;
  } catch (error) {
    return (error as { status?: number }).status;
  }
};

describe("assertCanDelete", () => {
  test("the author may, a moderator may, anyone else gets 404", () => {
    expect(statusOf(() => assertCanDelete("author", false, status()))).toBe(200);
    expect(statusOf(() => assertCanDelete("moderator", true, status()))).toBe(200);
    expect(statusOf(() => assertCanDelete("stranger", false, status()))).toBe(404);
  });

  test("a missing or already deleted status is 404, for its author too", () => {
    expect(statusOf(() => assertCanDelete("author", false, undefined))).toBe(404);
    expect(statusOf(() => assertCanDelete("author", false, status({ deletedAt: Date.now() } as Partial<StatusRecord>)))).toBe(404);
    expect(statusOf(() => assertCanDelete("moderator", true, status({ deletedAt: Date.now() } as Partial<StatusRecord>)))).toBe(404);
  });
});

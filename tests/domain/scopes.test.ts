// Which granted scopes satisfy a route's (API.md §2.1): broader scopes imply narrower ones, `follow` implies
// the follow-related read and write scopes, `profile` and `push` imply nothing else. grants() keeps what a
// granted list implies per list, so asking twice must answer the same.
import { expect, test } from "bun:test";
import { grants, subsetOf } from "../../src/domain/scopes.ts";

test("broader scopes imply narrower ones; follow, profile and push as Mastodon", () => {
  const token = ["read", "follow", "push"];
  for (let i = 0; i < 2; i++) {
    expect(grants(token, ["profile", "read:accounts"])).toBe(true);
    expect(grants(token, ["write:follows"])).toBe(true);
    expect(grants(token, ["write:statuses"])).toBe(false);
    expect(grants(token, ["push"])).toBe(true);
  }
  expect(grants(["profile"], ["read:accounts"])).toBe(false);
  expect(grants(["profile"], ["profile", "read:accounts"])).toBe(true);
  expect(grants(["admin:read"], ["admin:read:accounts"])).toBe(true);
  expect(grants(["admin:read"], ["admin:write:accounts"])).toBe(false);
  expect(grants(["write"], ["read"])).toBe(false);
  expect(grants([], ["read"])).toBe(false);
  // A scope no list knows is satisfied only by itself.
  expect(grants(["custom:scope"], ["custom:scope"])).toBe(true);
  expect(subsetOf(["read:accounts", "write:follows"], ["read", "follow"])).toBe(true);
});

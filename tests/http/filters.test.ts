// Filters v2 and v1 through HTTP: CRUD in JSON, form and multipart bodies, keywords_attributes, keywords and
// statuses on their own paths (both spellings), validation (every 422 names its field), 404 for other
// people's filters, scopes, expiry fields, the v1 view and the limits.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { missingKeys, referenceKeys } from "../helpers/reference-keys.ts";
import {
  call, createFilter, follow, formFields, get, newUser, post, postStatus, sendForm, sendMultipart, type FilterSpec, type User,
} from "./filters-helpers.ts";

let t: TestApp;
let owner: User;

beforeAll(async () => {
  t = await startTestApp();
  owner = await newUser(t, "fc");
});
afterAll(() => t.close());

const SPEC: FilterSpec = {
  title: "Spoilers",
  context: ["home", "public"],
  filter_action: "hide",
  keywords_attributes: [{ keyword: "finale", whole_word: false }, { keyword: "Season 3" }],
};

/** A filter's fields without its ids, to compare creations. */
function shape(filter: any) {
  return {
    title: filter.title,
    context: filter.context,
    filter_action: filter.filter_action,
    expires_at: filter.expires_at,
    keywords: filter.keywords.map((k: any) => ({ keyword: k.keyword, whole_word: k.whole_word })),
    statuses: filter.statuses,
  };
}

const EXPECTED = {
  title: "Spoilers",
  context: ["home", "public"],
  filter_action: "hide",
  expires_at: null,
  keywords: [{ keyword: "finale", whole_word: false }, { keyword: "Season 3", whole_word: true }],
  statuses: [],
};

const v2 = (path = "") => `/api/v2/filters${path}`;

describe("filters v2", () => {
  test("create in JSON, read, list, update and delete", async () => {
    const created = await post(t, v2(), owner.token, SPEC);
    expect(created.status).toBe(200);
    expect(shape(created.body)).toEqual(EXPECTED);
    expect(missingKeys(created.body, referenceKeys("POST /api/v2/filters"))).toEqual([]);
    expect(Object.keys(created.body).sort()).toEqual(["context", "expires_at", "filter_action", "id", "keywords", "statuses", "title"]);
    const id = created.body.id;
    expect(id).toMatch(/^\d+$/);

    const one = await get(t, v2(`/${id}`), owner.token);
    expect(one).toMatchObject({ status: 200, body: created.body });
    expect(missingKeys(one.body, referenceKeys("GET /api/v2/filters/1"))).toEqual([]);
    expect((await get(t, v2(), owner.token)).body.map((f: any) => f.id)).toContain(id);

    const [finale, season] = created.body.keywords;
    const updated = await call(t, "PUT", v2(`/${id}`), owner.token, {
      title: "TV",
      context: ["thread"],
      filter_action: "blur",
      keywords_attributes: [
        { id: finale.id, _destroy: true },
        { id: season.id, keyword: "season 4", whole_word: false },
        { keyword: "cliffhanger" },
      ],
    });
    expect(updated.status).toBe(200);
    expect(missingKeys(updated.body, referenceKeys("PUT /api/v2/filters/1"))).toEqual([]);
    expect(shape(updated.body)).toEqual({
      title: "TV",
      context: ["thread"],
      filter_action: "blur",
      expires_at: null,
      keywords: [{ keyword: "season 4", whole_word: false }, { keyword: "cliffhanger", whole_word: true }],
      statuses: [],
    });
    // The changed keyword keeps its id.
    expect(updated.body.keywords[0].id).toBe(season.id);
    // A PUT without a field leaves it alone.
    const retitled = await call(t, "PUT", v2(`/${id}`), owner.token, { title: "Television" });
    expect(shape(retitled.body)).toEqual({ ...shape(updated.body), title: "Television" });

    expect(await call(t, "DELETE", v2(`/${id}`), owner.token)).toMatchObject({ status: 200, body: {} });
    expect(await get(t, v2(`/${id}`), owner.token)).toMatchObject({ status: 404, body: { error: "Record not found" } });
    expect((await get(t, v2(), owner.token)).body.map((f: any) => f.id)).not.toContain(id);
    // Its keywords went with it.
    expect((await get(t, v2(`/keywords/${season.id}`), owner.token)).status).toBe(404);
  });

  test("create form-encoded (indexed and [] keys) and multipart: the same filter", async () => {
    const indexed = await sendForm(t, "POST", v2(), owner.token, formFields(SPEC, true));
    expect(indexed.status).toBe(200);
    expect(shape(indexed.body)).toEqual(EXPECTED);
    const bracketed = await sendForm(t, "POST", v2(), owner.token, formFields(SPEC, false));
    expect(bracketed.status).toBe(200);
    expect(shape(bracketed.body)).toEqual(EXPECTED);
    const multipart = await sendMultipart(t, "POST", v2(), owner.token, formFields(SPEC, true));
    expect(multipart.status).toBe(200);
    expect(shape(multipart.body)).toEqual(EXPECTED);
    // JSON with an index-keyed hash, as some clients send.
    const hashed = await post(t, v2(), owner.token, { ...SPEC, keywords_attributes: { "0": SPEC.keywords_attributes![0], "1": SPEC.keywords_attributes![1] } });
    expect(shape(hashed.body)).toEqual(EXPECTED);
    // A PUT in form encoding with [id] and [_destroy].
    const [finale] = indexed.body.keywords;
    const put = await sendForm(t, "PUT", v2(`/${indexed.body.id}`), owner.token, [
      ["keywords_attributes[0][id]", finale.id],
      ["keywords_attributes[0][_destroy]", "1"],
      ["context[]", "notifications"],
    ]);
    expect(put.status).toBe(200);
    expect(put.body.keywords.map((k: any) => k.keyword)).toEqual(["Season 3"]);
    expect(put.body.context).toEqual(["notifications"]);
  });

  test("defaults: warn, never expires, whole_word true, no keywords; blank keyword entries are ignored", async () => {
    const res = await post(t, v2(), owner.token, { title: "plain", context: ["home"], keywords_attributes: [{ keyword: "" }, { keyword: "x" }] });
    expect(shape(res.body)).toEqual({ title: "plain", context: ["home"], filter_action: "warn", expires_at: null, keywords: [{ keyword: "x", whole_word: true }], statuses: [] });
    const bare = await post(t, v2(), owner.token, { title: "bare", context: ["home", "home", "account"] });
    expect(bare.body).toMatchObject({ keywords: [], statuses: [], context: ["home", "account"] });
  });

  test("expires_in sets expires_at; blank means never", async () => {
    const before = Date.now();
    const res = await post(t, v2(), owner.token, { title: "soon", context: ["home"], expires_in: 3600 });
    const at = Date.parse(res.body.expires_at);
    expect(at).toBeGreaterThanOrEqual(before + 3600_000 - 1000);
    expect(at).toBeLessThanOrEqual(Date.now() + 3600_000 + 1000);
    const form = await sendForm(t, "POST", v2(), owner.token, [["title", "later"], ["context[]", "home"], ["expires_in", "86400"]]);
    expect(Date.parse(form.body.expires_at)).toBeGreaterThan(Date.now() + 86_000_000);
    expect((await call(t, "PUT", v2(`/${res.body.id}`), owner.token, { title: "soon2" })).body.expires_at).toBe(res.body.expires_at);
    expect((await call(t, "PUT", v2(`/${res.body.id}`), owner.token, { expires_in: "" })).body.expires_at).toBeNull();
    expect((await post(t, v2(), owner.token, { title: "never", context: ["home"], expires_in: "" })).body.expires_at).toBeNull();
  });

  describe("validation: every 422 names its field", () => {
    const bad = async (json: unknown, error: string) => {
      expect(await post(t, v2(), owner.token, json)).toMatchObject({ status: 422, body: { error } });
    };

    test("title", async () => {
      await bad({ context: ["home"] }, "Validation failed: Title can't be blank");
      await bad({ title: "  ", context: ["home"] }, "Validation failed: Title can't be blank");
      await bad({ title: "x".repeat(257), context: ["home"] }, "Validation failed: Title is too long (maximum is 256 characters)");
      expect((await post(t, v2(), owner.token, { title: "é".repeat(256), context: ["home"] })).status).toBe(200);
    });

    test("context", async () => {
      await bad({ title: "t" }, "Validation failed: Context None or invalid context supplied");
      await bad({ title: "t", context: [] }, "Validation failed: Context None or invalid context supplied");
      await bad({ title: "t", context: [""] }, "Validation failed: Context None or invalid context supplied");
      await bad({ title: "t", context: ["home", "direct"] }, "Validation failed: Context None or invalid context supplied");
      const form = await sendForm(t, "POST", v2(), owner.token, [["title", "t"], ["context[]", "everywhere"]]);
      expect(form).toMatchObject({ status: 422, body: { error: "Validation failed: Context None or invalid context supplied" } });
      // A single value (not an array) is taken too.
      expect((await sendForm(t, "POST", v2(), owner.token, [["title", "t"], ["context", "public"]])).body.context).toEqual(["public"]);
    });

    test("filter_action", async () => {
      await bad({ title: "t", context: ["home"], filter_action: "delete" }, "Validation failed: Filter action is not included in the list");
      await bad({ title: "t", context: ["home"], filter_action: "HIDE" }, "Validation failed: Filter action is not included in the list");
      const multipart = await sendMultipart(t, "POST", v2(), owner.token, [["title", "t"], ["context[]", "home"], ["filter_action", "mute"]]);
      expect(multipart).toMatchObject({ status: 422, body: { error: "Validation failed: Filter action is not included in the list" } });
      for (const action of ["warn", "hide", "blur"]) {
        expect((await post(t, v2(), owner.token, { title: action, context: ["home"], filter_action: action })).body.filter_action).toBe(action);
      }
      const filter = await createFilter(t, owner, { title: "keep", context: ["home"], filter_action: "blur" });
      expect(await call(t, "PUT", v2(`/${filter.id}`), owner.token, { filter_action: "nuke" })).toMatchObject({
        status: 422,
        body: { error: "Validation failed: Filter action is not included in the list" },
      });
      expect((await get(t, v2(`/${filter.id}`), owner.token)).body.filter_action).toBe("blur");
    });

    test("expires_in", async () => {
      await bad({ title: "t", context: ["home"], expires_in: "soon" }, "Validation failed: Expires in is not a number");
      await bad({ title: "t", context: ["home"], expires_in: "0" }, "Validation failed: Expires in must be greater than 0");
      await bad({ title: "t", context: ["home"], expires_in: -60 }, "Validation failed: Expires in must be greater than 0");
      await bad({ title: "t", context: ["home"], expires_in: "99999999999" }, "Validation failed: Expires in must be less than or equal to 3155760000");
    });

    test("keywords_attributes", async () => {
      await bad({ title: "t", context: ["home"], keywords_attributes: [{ keyword: " ", whole_word: true }] }, "Validation failed: Keywords keyword can't be blank");
      await bad(
        { title: "t", context: ["home"], keywords_attributes: [{ keyword: "k".repeat(513) }] },
        "Validation failed: Keywords keyword is too long (maximum is 512 characters)",
      );
      expect((await post(t, v2(), owner.token, { title: "t", context: ["home"], keywords_attributes: [{ keyword: "k".repeat(512) }] })).status).toBe(200);
      expect((await post(t, v2(), owner.token, { title: "t", context: ["home"], keywords_attributes: [{ keyword: "k", whole_word: "perhaps" }] })).status).toBe(422);
      const filter = await createFilter(t, owner, { title: "kw", context: ["home"], keywords_attributes: [{ keyword: "a" }] });
      // An id that is not one of this filter's keywords: nothing changes.
      expect((await call(t, "PUT", v2(`/${filter.id}`), owner.token, { keywords_attributes: [{ id: "12345", keyword: "b" }] })).status).toBe(404);
      expect(await call(t, "PUT", v2(`/${filter.id}`), owner.token, { title: "renamed", keywords_attributes: [{ id: filter.keywords[0].id, keyword: "" }] })).toMatchObject({
        status: 422,
        body: { error: "Validation failed: Keywords keyword can't be blank" },
      });
      expect(shape((await get(t, v2(`/${filter.id}`), owner.token)).body)).toEqual(shape(filter));
    });

    test("a failed creation stores nothing", async () => {
      const user = await newUser(t, "fc");
      await post(t, v2(), user.token, { title: "t", context: ["home"], keywords_attributes: [{ keyword: "ok" }, { keyword: "x".repeat(600) }] });
      expect((await get(t, v2(), user.token)).body).toEqual([]);
    });
  });

  test("keywords on their own paths (/filters/keywords/:id and /filter_keywords/:id)", async () => {
    const filter = await createFilter(t, owner, { title: "kw paths", context: ["home"], keywords_attributes: [{ keyword: "one" }] });
    const added = await post(t, v2(`/${filter.id}/keywords`), owner.token, { keyword: "two", whole_word: false });
    expect(added).toMatchObject({ status: 200, body: { keyword: "two", whole_word: false } });
    expect(Object.keys(added.body).sort()).toEqual(["id", "keyword", "whole_word"]);
    const form = await sendForm(t, "POST", v2(`/${filter.id}/keywords`), owner.token, [["keyword", "three"]]);
    expect(form.body).toMatchObject({ keyword: "three", whole_word: true });
    const list = await get(t, v2(`/${filter.id}/keywords`), owner.token);
    expect(list.body.map((k: any) => k.keyword)).toEqual(["one", "two", "three"]);
    expect(missingKeys(list.body, referenceKeys("GET /api/v2/filters/1/keywords"))).toEqual([]);

    for (const base of ["/api/v2/filters/keywords", "/api/v2/filter_keywords"]) {
      expect(await get(t, `${base}/${added.body.id}`, owner.token)).toMatchObject({ status: 200, body: added.body });
    }
    const changed = await call(t, "PUT", `/api/v2/filter_keywords/${added.body.id}`, owner.token, { keyword: "deux" });
    expect(changed.body).toEqual({ id: added.body.id, keyword: "deux", whole_word: false });
    expect((await call(t, "PUT", v2(`/keywords/${added.body.id}`), owner.token, { whole_word: true })).body).toEqual({ ...changed.body, whole_word: true });
    expect(await call(t, "PUT", v2(`/keywords/${added.body.id}`), owner.token, { keyword: "" })).toMatchObject({
      status: 422,
      body: { error: "Validation failed: Keyword can't be blank" },
    });
    expect(await post(t, v2(`/${filter.id}/keywords`), owner.token, {})).toMatchObject({ status: 422, body: { error: "Validation failed: Keyword can't be blank" } });
    expect(await post(t, v2(`/${filter.id}/keywords`), owner.token, { keyword: "y".repeat(513) })).toMatchObject({
      status: 422,
      body: { error: "Validation failed: Keyword is too long (maximum is 512 characters)" },
    });
    expect(await call(t, "DELETE", `/api/v2/filter_keywords/${added.body.id}`, owner.token)).toMatchObject({ status: 200, body: {} });
    expect((await get(t, v2(`/keywords/${added.body.id}`), owner.token)).status).toBe(404);
    expect((await get(t, v2(`/${filter.id}`), owner.token)).body.keywords.map((k: any) => k.keyword)).toEqual(["one", "three"]);
  });

  test("statuses on their own paths: visible statuses only, once per filter", async () => {
    const [friend, stranger] = [await newUser(t, "fc"), await newUser(t, "fc")];
    await follow(t, owner, friend);
    const visible = await postStatus(t, friend, "a status to filter");
    const hidden = await postStatus(t, stranger, { status: "followers only", visibility: "private" });
    const filter = await createFilter(t, owner, { title: "status paths", context: ["home"] });

    const added = await post(t, v2(`/${filter.id}/statuses`), owner.token, { status_id: visible.id });
    expect(added).toMatchObject({ status: 200, body: { status_id: visible.id } });
    expect(Object.keys(added.body).sort()).toEqual(["id", "status_id"]);
    expect(await post(t, v2(`/${filter.id}/statuses`), owner.token, { status_id: visible.id })).toMatchObject({
      status: 422,
      body: { error: "Validation failed: Status has already been taken" },
    });
    for (const statusId of [hidden.id, "999999999", "nope"]) {
      expect(await post(t, v2(`/${filter.id}/statuses`), owner.token, { status_id: statusId })).toMatchObject({
        status: 422,
        body: { error: "Validation failed: Status is invalid" },
      });
    }
    expect(await post(t, v2(`/${filter.id}/statuses`), owner.token, {})).toMatchObject({ status: 422, body: { error: "Validation failed: Status must exist" } });
    // The same status may be in another filter.
    const other = await createFilter(t, owner, { title: "other", context: ["home"] });
    expect((await sendForm(t, "POST", v2(`/${other.id}/statuses`), owner.token, [["status_id", visible.id]])).status).toBe(200);

    const list = await get(t, v2(`/${filter.id}/statuses`), owner.token);
    expect(list.body).toEqual([added.body]);
    expect(missingKeys(list.body, referenceKeys("GET /api/v2/filters/2/statuses"))).toEqual([]);
    for (const base of ["/api/v2/filters/statuses", "/api/v2/filter_statuses"]) {
      const one = await get(t, `${base}/${added.body.id}`, owner.token);
      expect(one).toMatchObject({ status: 200, body: added.body });
      expect(missingKeys(one.body, referenceKeys("GET /api/v2/filters/statuses/1"))).toEqual([]);
    }
    expect((await get(t, v2(`/${filter.id}`), owner.token)).body.statuses).toEqual([added.body]);
    // A keyword id is not a status entry id (and the other way round).
    expect((await get(t, v2(`/statuses/${filter.id}`), owner.token)).status).toBe(404);
    expect(await call(t, "DELETE", `/api/v2/filter_statuses/${added.body.id}`, owner.token)).toMatchObject({ status: 200, body: {} });
    expect((await get(t, v2(`/statuses/${added.body.id}`), owner.token)).status).toBe(404);
    expect((await get(t, v2(`/${filter.id}/statuses`), owner.token)).body).toEqual([]);
  });

  test("someone else's filters, keywords and statuses do not exist for you", async () => {
    const other = await newUser(t, "fc");
    const friend = await newUser(t, "fc");
    const status = await postStatus(t, friend, "public words");
    const filter = await createFilter(t, owner, { title: "mine", context: ["home"], keywords_attributes: [{ keyword: "mine" }] });
    const entry = (await post(t, v2(`/${filter.id}/statuses`), owner.token, { status_id: status.id })).body;
    const keywordId = filter.keywords[0].id;
    const answers = [
      await get(t, v2(`/${filter.id}`), other.token),
      await call(t, "PUT", v2(`/${filter.id}`), other.token, { title: "theirs" }),
      await call(t, "DELETE", v2(`/${filter.id}`), other.token),
      await get(t, v2(`/${filter.id}/keywords`), other.token),
      await post(t, v2(`/${filter.id}/keywords`), other.token, { keyword: "x" }),
      await get(t, v2(`/${filter.id}/statuses`), other.token),
      await post(t, v2(`/${filter.id}/statuses`), other.token, { status_id: status.id }),
      await get(t, v2(`/keywords/${keywordId}`), other.token),
      await get(t, `/api/v2/filter_keywords/${keywordId}`, other.token),
      await call(t, "PUT", v2(`/keywords/${keywordId}`), other.token, { keyword: "x" }),
      await call(t, "DELETE", `/api/v2/filter_keywords/${keywordId}`, other.token),
      await get(t, v2(`/statuses/${entry.id}`), other.token),
      await call(t, "DELETE", `/api/v2/filter_statuses/${entry.id}`, other.token),
      await get(t, `/api/v1/filters/${keywordId}`, other.token),
      await call(t, "PUT", `/api/v1/filters/${keywordId}`, other.token, { phrase: "x" }),
      await call(t, "DELETE", `/api/v1/filters/${keywordId}`, other.token),
      await get(t, v2("/abc"), owner.token),
      await get(t, v2("/keywords/abc"), owner.token),
    ];
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 404));
    expect((await get(t, v2(), other.token)).body).toEqual([]);
    expect((await get(t, "/api/v1/filters", other.token)).body).toEqual([]);
    // Nothing changed.
    const mine = (await get(t, v2(`/${filter.id}`), owner.token)).body;
    expect(mine).toMatchObject({ title: "mine", keywords: [{ keyword: "mine" }], statuses: [entry] });
  });

  test("scopes: read:filters to read, write:filters to change", async () => {
    const reader = await newUser(t, "fc", "read:filters");
    const writer = await newUser(t, "fc", "write:filters");
    const statusesOnly = await newUser(t, "fc", "read:statuses write:statuses");
    expect((await get(t, v2(), reader.token)).status).toBe(200);
    expect((await get(t, "/api/v1/filters", reader.token)).status).toBe(200);
    expect(await post(t, v2(), reader.token, { title: "no", context: ["home"] })).toMatchObject({
      status: 403,
      body: { error: "This action is outside the authorized scopes" },
    });
    expect((await post(t, "/api/v1/filters", reader.token, { phrase: "no", context: ["home"] })).status).toBe(403);
    const created = await post(t, v2(), writer.token, { title: "yes", context: ["home"] });
    expect(created.status).toBe(200);
    expect((await get(t, v2(), writer.token)).status).toBe(403);
    expect((await post(t, v2(`/${created.body.id}/keywords`), writer.token, { keyword: "k" })).status).toBe(200);
    expect((await get(t, v2(`/${created.body.id}/keywords`), writer.token)).status).toBe(403);
    expect((await get(t, v2(), statusesOnly.token)).status).toBe(403);
    expect((await post(t, v2(), statusesOnly.token, { title: "no", context: ["home"] })).status).toBe(403);
    expect((await get(t, v2())).status).toBe(401);
    expect((await post(t, v2(), undefined, { title: "no", context: ["home"] })).status).toBe(401);
    expect((await get(t, "/api/v1/filters")).status).toBe(401);
  });

  test("at most 1,000 keywords over all of an account's filters", async () => {
    const busy = await newUser(t, "fc");
    const keywords = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => ({ keyword: `${prefix}${i}` }));
    const first = await post(t, v2(), busy.token, { title: "many", context: ["home"], keywords_attributes: keywords(600, "a") });
    expect(first.body.keywords.length).toBe(600);
    const refused = { status: 422, body: { error: "Validation failed: You have reached the maximum number of filter keywords (1000)" } };
    expect(await post(t, v2(), busy.token, { title: "more", context: ["home"], keywords_attributes: keywords(401, "b") })).toMatchObject(refused);
    const second = await post(t, v2(), busy.token, { title: "more", context: ["home"], keywords_attributes: keywords(400, "b") });
    expect(second.status).toBe(200);
    expect(await post(t, v2(`/${first.body.id}/keywords`), busy.token, { keyword: "one more" })).toMatchObject(refused);
    expect(await call(t, "PUT", v2(`/${second.body.id}`), busy.token, { keywords_attributes: [{ keyword: "one more" }] })).toMatchObject(refused);
    expect((await post(t, "/api/v1/filters", busy.token, { phrase: "one more", context: ["home"] })).status).toBe(422);
    // Room again once a keyword goes.
    await call(t, "DELETE", v2(`/keywords/${first.body.keywords[0].id}`), busy.token);
    expect((await post(t, v2(`/${second.body.id}/keywords`), busy.token, { keyword: "one more" })).status).toBe(200);
  });

  test(`at most 100 filters per account`, async () => {
    const busy = await newUser(t, "fc");
    for (let i = 0; i < 100; i++) expect((await post(t, v2(), busy.token, { title: `f${i}`, context: ["home"] })).status).toBe(200);
    expect(await post(t, v2(), busy.token, { title: "one too many", context: ["home"] })).toMatchObject({
      status: 422,
      body: { error: "Validation failed: You have reached the maximum number of filters" },
    });
    expect((await post(t, "/api/v1/filters", busy.token, { phrase: "one too many", context: ["home"] })).status).toBe(422);
  });
});

describe("filters v1", () => {
  const v1 = (path = "") => `/api/v1/filters${path}`;

  test("a v1 filter is a keyword of a v2 filter", async () => {
    const user = await newUser(t, "fc");
    const created = await post(t, v1(), user.token, { phrase: "Spoiler", context: ["home", "thread"], irreversible: true, whole_word: false, expires_in: 600 });
    expect(created.status).toBe(200);
    expect(Object.keys(created.body).sort()).toEqual(["context", "expires_at", "id", "irreversible", "phrase", "whole_word"]);
    expect(created.body).toMatchObject({ phrase: "Spoiler", context: ["home", "thread"], irreversible: true, whole_word: false });
    expect(Date.parse(created.body.expires_at)).toBeGreaterThan(Date.now() + 590_000);

    const [filter] = (await get(t, v2(), user.token)).body;
    expect(filter).toMatchObject({ title: "Spoiler", context: ["home", "thread"], filter_action: "hide", expires_at: created.body.expires_at });
    expect(filter.keywords).toEqual([{ id: created.body.id, keyword: "Spoiler", whole_word: false }]);
    expect((await get(t, v1(`/${created.body.id}`), user.token)).body).toEqual(created.body);

    // Another keyword of the same filter is a v1 filter of its own, with the filter's fields.
    const extra = (await post(t, v2(`/${filter.id}/keywords`), user.token, { keyword: "leak" })).body;
    const list = (await get(t, v1(), user.token)).body;
    expect(list.map((f: any) => [f.id, f.phrase, f.irreversible])).toEqual([
      [created.body.id, "Spoiler", true],
      [extra.id, "leak", true],
    ]);
    // Changing the keyword alone is fine; changing the shared filter is not (it has two keywords now).
    expect((await call(t, "PUT", v1(`/${extra.id}`), user.token, { phrase: "leaks", whole_word: false })).status).toBe(422);
    expect((await call(t, "PUT", v1(`/${extra.id}`), user.token, { whole_word: false })).body).toMatchObject({ phrase: "leak", whole_word: false });
    const refused = await call(t, "PUT", v1(`/${extra.id}`), user.token, { irreversible: false });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toContain("more than one filter keyword");
    // Deleting a v1 filter removes the keyword; the v2 filter stays.
    expect(await call(t, "DELETE", v1(`/${extra.id}`), user.token)).toMatchObject({ status: 200, body: {} });
    expect((await get(t, v1(`/${extra.id}`), user.token)).status).toBe(404);
    expect((await get(t, v2(`/${filter.id}`), user.token)).body.keywords.map((k: any) => k.keyword)).toEqual(["Spoiler"]);
    // With one keyword left, the filter may change through v1.
    const changed = await call(t, "PUT", v1(`/${created.body.id}`), user.token, { phrase: "Spoilers", irreversible: false, context: ["public"], expires_in: "" });
    expect(changed.body).toMatchObject({ id: created.body.id, phrase: "Spoilers", irreversible: false, context: ["public"], expires_at: null });
    expect((await get(t, v2(`/${filter.id}`), user.token)).body).toMatchObject({ title: "Spoilers", filter_action: "warn", context: ["public"] });
  });

  test("form-encoded v1 creation and validation", async () => {
    const user = await newUser(t, "fc");
    const form = await sendForm(t, "POST", v1(), user.token, [["phrase", "ads"], ["context[]", "public"], ["context[]", "notifications"]]);
    expect(form.body).toMatchObject({ phrase: "ads", context: ["notifications", "public"], irreversible: false, whole_word: true, expires_at: null });
    expect(await post(t, v1(), user.token, { context: ["home"] })).toMatchObject({ status: 422, body: { error: "Validation failed: Phrase can't be blank" } });
    expect(await post(t, v1(), user.token, { phrase: "x", context: ["direct"] })).toMatchObject({
      status: 422,
      body: { error: "Validation failed: Context None or invalid context supplied" },
    });
    expect(await post(t, v1(), user.token, { phrase: "x" })).toMatchObject({ status: 422, body: { error: "Validation failed: Context None or invalid context supplied" } });
    expect(await post(t, v1(), user.token, { phrase: "p".repeat(513), context: ["home"] })).toMatchObject({
      status: 422,
      body: { error: "Validation failed: Phrase is too long (maximum is 512 characters)" },
    });
    expect(await post(t, v1(), user.token, { phrase: "x", context: ["home"], expires_in: "tomorrow" })).toMatchObject({
      status: 422,
      body: { error: "Validation failed: Expires in is not a number" },
    });
    expect((await get(t, v1(), user.token)).body.map((f: any) => f.phrase)).toEqual(["ads"]);
  });

  test("a blur filter's keywords show as not irreversible", async () => {
    const user = await newUser(t, "fc");
    await createFilter(t, user, { title: "blurry", context: ["home"], filter_action: "blur", keywords_attributes: [{ keyword: "gore" }] });
    expect((await get(t, v1(), user.token)).body).toMatchObject([{ phrase: "gore", irreversible: false }]);
  });
});

// GET/POST /api/v1/markers: home and notifications positions, version, updated_at, scopes, bad input.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { appToken, createClientApp } from "../helpers/clients.ts";
import { get, newUser, post, type User } from "./timelines-helpers.ts";

let t: TestApp;
let user: User;

beforeAll(async () => {
  t = await startTestApp();
  user = await newUser(t, "m");
});
afterAll(() => t.close());

const read = (query: string, token = user.token) => get(t, `/api/v1/markers${query}`, token);

describe("markers", () => {
  test("nothing saved yet: an empty map", async () => {
    expect(await read("?timeline[]=home&timeline[]=notifications")).toMatchObject({ status: 200, body: {} });
    expect((await read("")).body).toEqual({});
  });

  test("saving one gives version 0, each change one more; saving the same position again changes nothing", async () => {
    const first = await post(t, "/api/v1/markers", user.token, { home: { last_read_id: "103" } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ home: { last_read_id: "103", version: 0, updated_at: expect.any(String) } });
    expect(Date.parse(first.body.home.updated_at)).toBeGreaterThan(Date.now() - 60_000);
    const second = await post(t, "/api/v1/markers", user.token, { home: { last_read_id: "110" } });
    expect(second.body.home).toMatchObject({ last_read_id: "110", version: 1 });
    const same = await post(t, "/api/v1/markers", user.token, { home: { last_read_id: "110" } });
    expect(same.body.home).toEqual(second.body.home);
    expect((await read("?timeline[]=home")).body).toEqual({ home: second.body.home });
  });

  test("both timelines in one request, form-encoded; reading returns only those asked for", async () => {
    const res = await t.request("/api/v1/markers", {
      method: "POST",
      token: user.token,
      form: { "home[last_read_id]": "120", "notifications[last_read_id]": "7" },
    });
    const body = (await res.json()) as any;
    expect(body.home).toMatchObject({ last_read_id: "120", version: 2 });
    expect(body.notifications).toMatchObject({ last_read_id: "7", version: 0 });
    expect(Object.keys((await read("?timeline[]=notifications")).body)).toEqual(["notifications"]);
    expect(Object.keys((await read("?timeline[]=home&timeline[]=notifications&timeline[]=nonsense")).body).sort()).toEqual(["home", "notifications"]);
    expect(Object.keys((await read("?timeline=home")).body)).toEqual(["home"]);
  });

  test("markers are per user", async () => {
    const other = await newUser(t, "m");
    expect((await read("?timeline[]=home", other.token)).body).toEqual({});
  });

  test("a missing or non-numeric last_read_id is 422; unknown timelines are ignored", async () => {
    expect(await post(t, "/api/v1/markers", user.token, { home: {} })).toMatchObject({
      status: 422,
      body: { error: "Validation failed: Last read can't be blank" },
    });
    expect(await post(t, "/api/v1/markers", user.token, { home: { last_read_id: "abc" } })).toMatchObject({ status: 422 });
    expect(await post(t, "/api/v1/markers", user.token, { public: { last_read_id: "1" } })).toMatchObject({ status: 200, body: {} });
    expect(await post(t, "/api/v1/markers", user.token, {})).toMatchObject({ status: 200, body: {} });
  });

  test("JSON numbers are taken as ids; each save moves updated_at", async () => {
    const other = await newUser(t, "m");
    const first = await post(t, "/api/v1/markers", other.token, { notifications: { last_read_id: 42 } });
    expect(first.body.notifications).toMatchObject({ last_read_id: "42", version: 0 });
    await Bun.sleep(5); // the clock must move for updated_at to, which is what is under test
    const second = await post(t, "/api/v1/markers", other.token, { notifications: { last_read_id: 43 } });
    expect(second.body.notifications).toMatchObject({ last_read_id: "43", version: 1 });
    expect(Date.parse(second.body.notifications.updated_at)).toBeGreaterThan(Date.parse(first.body.notifications.updated_at));
  });

  test("read:statuses to read, write:statuses to save; a user token is needed", async () => {
    const reader = await newUser(t, "m", "read:statuses");
    expect((await read("", reader.token)).status).toBe(200);
    expect(await post(t, "/api/v1/markers", reader.token, { home: { last_read_id: "1" } })).toMatchObject({
      status: 403,
      body: { error: "This action is outside the authorized scopes" },
    });
    expect((await get(t, "/api/v1/markers")).status).toBe(401);
    const app = await createClientApp(t);
    const { access_token } = await appToken(t, app, "read write");
    expect(await read("?timeline[]=home", access_token)).toMatchObject({ status: 422, body: { error: "This method requires an authenticated user" } });
  });
});

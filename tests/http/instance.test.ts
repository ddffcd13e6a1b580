// /api/v2/instance, /api/v1/instance and its companions, the instance artwork and pages, through HTTP.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import sharp from "sharp";
import { BASE, startTestApp, type TestApp } from "../helpers/app.ts";
import { createUser, signedInUser } from "../helpers/clients.ts";
import { missingKeys, referenceKeys } from "../helpers/reference-keys.ts";
import {
  ACCOUNT_LIMITS,
  MASTODON_API_VERSION,
  MEDIA_LIMITS,
  POLL_LIMITS,
  REPORTED_VERSION,
  STATUS_LIMITS,
} from "../../src/domain/limits.ts";
import { addRule } from "../../src/domain/instance/rules.ts";
import { instanceUsage, setInstanceDescription } from "../../src/domain/instance/info.ts";
import { ICON_SIZES } from "../../src/domain/instance/artwork.ts";
import { remoteAccount } from "./timelines-helpers.ts";

// Users cost an argon2 hash and an RSA key each.
setDefaultTimeout(30_000);

let t: TestApp;
let owner: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  t = await startTestApp({ WARREN_REGISTRATIONS: "open", WARREN_TITLE: "Burrow", WARREN_CONTACT_EMAIL: "admin@burrow.example" });
  owner = await signedInUser(t, "boss", "read write", { role: "Owner" });
  // A profile field, so that the contact account shows Mastodon's `fields.*` keys.
  const profile = await t.request("/api/v1/accounts/update_credentials", {
    method: "PATCH",
    token: owner.token,
    json: { display_name: "The Boss", fields_attributes: [{ name: "Home", value: "https://burrow.example" }] },
  });
  if (profile.status !== 200) throw new Error(`update_credentials failed: ${profile.status}`);
  await createUser(t, "member");
  await createUser(t, "waiting", { approved: false });
  await createUser(t, "unconfirmed", { confirmed: false });
  await addRule(t.deps, "Be excellent to each other", "No harassment, no hate.");
  await addRule(t.deps, "No spam");
});
afterAll(() => t.close());

async function getJson(path: string, init: Parameters<TestApp["request"]>[1] = {}) {
  const res = await t.request(path, init);
  return { res, body: (await res.json()) as any };
}

/** The reference keys, less those naming the languages of Mastodon's sample rule translations. */
const keysFor = (endpoint: string) => referenceKeys(endpoint).filter((key) => !/^rules\.translations\./.test(key));

const expectedConfiguration = {
  accounts: {
    max_display_name_length: ACCOUNT_LIMITS.maxDisplayNameLength,
    max_note_length: ACCOUNT_LIMITS.maxNoteLength,
    max_avatar_description_length: ACCOUNT_LIMITS.maxAvatarDescriptionLength,
    max_header_description_length: ACCOUNT_LIMITS.maxHeaderDescriptionLength,
    max_featured_tags: ACCOUNT_LIMITS.maxFeaturedTags,
    max_pinned_statuses: ACCOUNT_LIMITS.maxPinnedStatuses,
    max_profile_fields: ACCOUNT_LIMITS.maxProfileFields,
    profile_field_name_limit: ACCOUNT_LIMITS.profileFieldNameLimit,
    profile_field_value_limit: ACCOUNT_LIMITS.profileFieldValueLimit,
  },
  statuses: {
    max_characters: STATUS_LIMITS.maxCharacters,
    max_media_attachments: STATUS_LIMITS.maxMediaAttachments,
    characters_reserved_per_url: STATUS_LIMITS.charactersReservedPerUrl,
  },
  media_attachments: {
    description_limit: MEDIA_LIMITS.descriptionLimit,
    image_matrix_limit: MEDIA_LIMITS.imageMatrixLimit,
    image_size_limit: MEDIA_LIMITS.imageSizeLimit,
    supported_mime_types: [...MEDIA_LIMITS.supportedMimeTypes],
    video_frame_rate_limit: MEDIA_LIMITS.videoFrameRateLimit,
    video_matrix_limit: MEDIA_LIMITS.videoMatrixLimit,
    video_size_limit: MEDIA_LIMITS.videoSizeLimit,
  },
  polls: {
    max_options: POLL_LIMITS.maxOptions,
    max_characters_per_option: POLL_LIMITS.maxCharactersPerOption,
    min_expiration: POLL_LIMITS.minExpiration,
    max_expiration: POLL_LIMITS.maxExpiration,
  },
};

describe("GET /api/v2/instance", () => {
  test("carries every key of Mastodon 4.6's answer", async () => {
    const { res, body } = await getJson("/api/v2/instance");
    expect(res.status).toBe(200);
    expect(missingKeys(body, keysFor("GET /api/v2/instance/"))).toEqual([]);
  });

  test("answers with a trailing slash too", async () => {
    expect((await t.request("/api/v2/instance/")).status).toBe(200);
  });

  test("reports the configured identity, version and the limits that are enforced", async () => {
    const { body } = await getJson("/api/v2/instance");
    expect(body).toMatchObject({
      domain: "localhost:3000",
      title: "Burrow",
      version: REPORTED_VERSION,
      source_url: "https://github.com/warren-social/warren",
      description: expect.any(String),
      languages: ["en"],
      api_versions: { mastodon: MASTODON_API_VERSION },
      wrapstodon: null,
    });
    expect(body.configuration).toMatchObject(expectedConfiguration);
    expect(body.configuration.media_attachments.description_limit).toBe(1500);
    expect(body.configuration.urls).toEqual({
      streaming: "ws://localhost:3000",
      status: null,
      about: `${BASE}/about`,
      privacy_policy: `${BASE}/privacy-policy`,
      terms_of_service: null,
    });
    expect(body.configuration.vapid).toEqual({ public_key: expect.any(String) });
    expect(body.configuration.translation).toEqual({ enabled: false });
    const everyone = { local: "public", remote: "public" };
    expect(body.configuration.timelines_access).toEqual({ live_feeds: everyone, hashtag_feeds: everyone, trending_link_feeds: everyone });
    expect(body.configuration.limited_federation).toBe(false);
  });

  test("registrations follow WARREN_REGISTRATIONS", async () => {
    const { body } = await getJson("/api/v2/instance");
    expect(body.registrations).toEqual({ enabled: true, approval_required: false, reason_required: false, message: null, min_age: null, url: null });
  });

  test("contact is the configured e-mail and the Owner's account", async () => {
    const { body } = await getJson("/api/v2/instance");
    expect(body.contact.email).toBe("admin@burrow.example");
    expect(body.contact.account).toMatchObject({ id: owner.id, username: "boss", acct: "boss", roles: [{ name: "Owner" }] });
  });

  test("rules are listed oldest first with their hints", async () => {
    const { body } = await getJson("/api/v2/instance");
    expect(body.rules).toEqual([
      { id: expect.stringMatching(/^\d+$/), text: "Be excellent to each other", hint: "No harassment, no hate.", translations: {} },
      { id: expect.stringMatching(/^\d+$/), text: "No spam", hint: "", translations: {} },
    ]);
  });

  test("active users count confirmed, approved members active in the last 30 days", async () => {
    const { body } = await getJson("/api/v2/instance");
    expect(body.usage).toEqual({ users: { active_month: 2 } });
  });

  test("thumbnail and icons point at real PNGs of the announced sizes", async () => {
    const { body } = await getJson("/api/v2/instance");
    expect(body.thumbnail).toEqual({
      url: `${BASE}/instance/thumbnail.png`,
      blurhash: expect.stringMatching(/^[0-9A-Za-z#$%*+,\-.:;=?@[\]^_{|}~]{28}$/),
      versions: { "@1x": `${BASE}/instance/thumbnail.png`, "@2x": `${BASE}/instance/thumbnail@2x.png` },
      description: expect.any(String),
    });
    for (const [url, width, height] of [[body.thumbnail.versions["@1x"], 1200, 630], [body.thumbnail.versions["@2x"], 2400, 1260]] as const) {
      const res = await t.request(url.slice(BASE.length));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      expect(res.headers.get("cache-control")).toBe("public, max-age=604800");
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["png", width, height]);
    }
    expect(body.icon.map((i: { size: string }) => i.size)).toEqual(ICON_SIZES.map((s) => `${s}x${s}`));
    for (const { src, size } of body.icon as { src: string; size: string }[]) {
      const res = await t.request(src.slice(BASE.length));
      expect(res.status).toBe(200);
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect(`${meta.width}x${meta.height}`).toBe(size);
    }
  });

  test("unknown icon sizes are 404 and not cached for long", async () => {
    for (const path of ["/instance/icons/37x37.png", "/instance/icons/36x48.png", "/instance/icons/36x36.jpg", "/instance/icons/x.png"]) {
      const res = await t.request(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "Record not found" });
      expect(res.headers.get("cache-control") ?? "").not.toContain("max-age=604800");
    }
  });

  test("is public and cached for 5 minutes even with a token; a bad token is ignored", async () => {
    for (const token of [undefined, owner.token, "not-a-token"]) {
      const res = await t.request("/api/v2/instance", { token });
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toStartWith("public, max-age=300");
      expect(res.headers.get("vary")).toBe("Authorization");
    }
  });
});

describe("GET /api/v1/instance", () => {
  test("carries every key of Mastodon 4.6's answer and is marked deprecated", async () => {
    const { res, body } = await getJson("/api/v1/instance");
    expect(res.status).toBe(200);
    expect(res.headers.get("deprecation")).toBe("@1668384000");
    expect(res.headers.get("cache-control")).toStartWith("public, max-age=300");
    expect(missingKeys(body, keysFor("GET /api/v1/instance/"))).toEqual([]);
  });

  test("reports the v1 shape with statistics and the same limits", async () => {
    await remoteAccount(t, "faraway", "remote.example");
    const { body } = await getJson("/api/v1/instance");
    const { description_limit: _, ...media } = expectedConfiguration.media_attachments;
    expect(body).toMatchObject({
      uri: "localhost:3000",
      title: "Burrow",
      email: "admin@burrow.example",
      version: REPORTED_VERSION,
      urls: { streaming_api: "ws://localhost:3000" },
      thumbnail: `${BASE}/instance/thumbnail.png`,
      languages: ["en"],
      registrations: true,
      approval_required: false,
      invites_enabled: false,
      configuration: {
        accounts: { max_featured_tags: ACCOUNT_LIMITS.maxFeaturedTags },
        statuses: expectedConfiguration.statuses,
        media_attachments: media,
        polls: expectedConfiguration.polls,
      },
      contact_account: { username: "boss" },
    });
    expect(body.configuration.media_attachments.description_limit).toBeUndefined();
    expect(body.stats).toEqual({ user_count: 2, status_count: expect.any(Number), domain_count: 1 });
    expect(body.rules.map((r: { text: string }) => r.text)).toEqual(["Be excellent to each other", "No spam"]);
  });
});

describe("instance companions", () => {
  test("GET /api/v1/instance/rules", async () => {
    const { res, body } = await getJson("/api/v1/instance/rules");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toStartWith("public, max-age=300");
    expect(body.map((r: { text: string; hint: string }) => [r.text, r.hint])).toEqual([
      ["Be excellent to each other", "No harassment, no hate."],
      ["No spam", ""],
    ]);
  });

  test("GET /api/v1/instance/peers lists the domains of known remote accounts", async () => {
    await remoteAccount(t, "other", "remote.example");
    await remoteAccount(t, "someone", "Another.Example");
    const { res, body } = await getJson("/api/v1/instance/peers");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toStartWith("public, max-age=86400");
    expect(body).toEqual(["another.example", "remote.example"]);
  });

  test("GET /api/v1/instance/activity counts 12 weeks from Monday, newest first", async () => {
    const before = (await getJson("/api/v1/instance/activity")).body;
    const poster = await signedInUser(t, "poster");
    const posted = await t.request("/api/v1/statuses", { method: "POST", token: poster.token, json: { status: "hello" } });
    expect(posted.status).toBe(200);
    const { res, body } = await getJson("/api/v1/instance/activity");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toStartWith("public, max-age=86400");
    expect(body).toHaveLength(12);
    for (const [i, week] of body.entries()) {
      expect(Object.keys(week).sort()).toEqual(["logins", "registrations", "statuses", "week"]);
      expect(new Date(Number(week.week) * 1000).toISOString()).toMatch(/T00:00:00\.000Z$/);
      expect(new Date(Number(week.week) * 1000).getUTCDay()).toBe(1);
      if (i > 0) expect(Number(body[i - 1].week) - Number(week.week)).toBe(7 * 86400);
    }
    const thisWeek = Number(body[0].week) * 1000;
    expect(thisWeek).toBeLessThanOrEqual(Date.now());
    expect(Date.now() - thisWeek).toBeLessThan(7 * 86_400_000);
    expect(Number(body[0].registrations)).toBe(Number(before[0].registrations) + 1);
    expect(Number(body[0].logins)).toBe(Number(before[0].logins) + 1);
    expect(Number(body[0].statuses)).toBe(Number(before[0].statuses) + 1);
    expect(body.slice(1).every((w: Record<string, string>) => w.statuses === "0" && w.registrations === "0")).toBe(true);
  });

  test("GET /api/v1/instance/extended_description is empty until the operator writes one", async () => {
    const empty = await getJson("/api/v1/instance/extended_description");
    expect(empty.res.status).toBe(200);
    expect(empty.body).toEqual({ updated_at: null, content: "" });
    await setInstanceDescription(t.deps, "A cosy server.\n\nFor <rabbits> & friends.");
    const { body } = await getJson("/api/v1/instance/extended_description");
    expect(body.content).toBe("<p>A cosy server.</p><p>For &lt;rabbits&gt; &amp; friends.</p>");
    expect(Date.now() - Date.parse(body.updated_at)).toBeLessThan(60_000);
    expect((await getJson("/api/v2/instance")).body.description).toBe("A cosy server.\n\nFor <rabbits> & friends.");
    expect((await getJson("/api/v1/instance")).body.short_description).toBe("A cosy server.\n\nFor <rabbits> & friends.");
  });

  test("GET /api/v1/instance/privacy_policy", async () => {
    const { res, body } = await getJson("/api/v1/instance/privacy_policy");
    expect(res.status).toBe(200);
    expect(body.updated_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(body.content).toContain("What this server stores");
    expect(body.content).toContain("mailto:admin@burrow.example");
  });

  test("GET /api/v1/instance/languages, translation_languages and custom_emojis", async () => {
    const languages = (await getJson("/api/v1/instance/languages")).body as { code: string; name: string }[];
    expect(languages).toContainEqual({ code: "en", name: "English" });
    expect(languages).toContainEqual({ code: "de", name: "German" });
    expect(languages.every((l) => /^[a-z]{2}$/.test(l.code) && l.name.length > 0)).toBe(true);
    expect((await getJson("/api/v1/instance/translation_languages")).body).toEqual({});
    const emojis = await getJson("/api/v1/custom_emojis");
    expect(emojis.res.status).toBe(200);
    expect(emojis.body).toEqual([]);
  });
});

describe("statistics", () => {
  test("active windows are 30 and 180 days; pending, unconfirmed users are not members", () => {
    const now = Date.now();
    const members = instanceUsage(t.deps, now).total;
    expect(members).toBeGreaterThanOrEqual(3);
    expect(instanceUsage(t.deps, now).activeMonth).toBe(members);
    expect(instanceUsage(t.deps, now + 31 * 86_400_000)).toMatchObject({ total: members, activeMonth: 0, activeHalfyear: members });
    expect(instanceUsage(t.deps, now + 181 * 86_400_000)).toMatchObject({ total: members, activeMonth: 0, activeHalfyear: 0 });
  });
});

describe("pages", () => {
  test("GET /about shows the title, description, rules and contact", async () => {
    const res = await t.request("/about");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await res.text();
    for (const text of ["<h1>Burrow</h1>", "Be excellent to each other", "No harassment, no hate.", "mailto:admin@burrow.example", "@boss", "Anyone can sign up."]) {
      expect(html).toContain(text);
    }
  });

  test("GET /privacy-policy", async () => {
    const res = await t.request("/privacy-policy");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("<h1>Privacy policy</h1>");
  });
});

// Error messages in the client's language: `lang` first, then Accept-Language, English otherwise; text the
// catalogue does not know stays English.
import { expect, test } from "bun:test";
import { seededWorld } from "../helpers/world.ts";
import type { TestApp } from "../helpers/app.ts";

const { t, alice } = seededWorld({ users: ["alice"] });

async function error(path: string, init: Parameters<TestApp["request"]>[1] = {}) {
  const res = await t.request(path, init);
  return { status: res.status, language: res.headers.get("content-language"), body: (await res.json()) as any };
}

test("lang picks the language; English without it", async () => {
  expect((await error("/api/v1/statuses/999999")).body.error).toBe("Record not found");
  const de = await error("/api/v1/statuses/999999?lang=de");
  expect(de).toMatchObject({ status: 404, language: "de", body: { error: "Eintrag nicht gefunden" } });
  expect((await error("/api/v1/statuses/999999?lang=ja")).body.error).toBe("レコードが見つかりません");
  expect((await error("/api/v1/statuses/999999?lang=zz")).body.error).toBe("Record not found");
  expect((await error("/api/v1/statuses/999999?lang=es-MX")).body.error).toBe("Registro no encontrado");
});

test("Accept-Language: the best supported language by quality; lang wins over it", async () => {
  const headers = { "accept-language": "sv;q=1, fr-CA;q=0.8, de;q=0.5" };
  expect((await error("/api/v1/statuses/999999", { headers })).body.error).toBe("Enregistrement introuvable");
  expect((await error("/api/v1/statuses/999999?lang=es", { headers })).body.error).toBe("Registro no encontrado");
  expect((await error("/api/v1/statuses/999999", { headers: { "accept-language": "*, de;q=0" } })).body.error).toBe("Record not found");
  expect((await error("/api/v1/statuses/999999", { headers: { "accept-language": "x".repeat(5000) } })).status).toBe(404);
});

test("validation messages part by part, with attribute names and details", async () => {
  const blank = await error("/api/v1/statuses?lang=ja", { method: "POST", token: alice.token, json: { status: "" } });
  expect(blank.status).toBe(422);
  expect(blank.body.error).toBe("バリデーションに失敗しました: 本文を入力してください");

  const tooLong = await error("/api/v1/accounts/update_credentials", {
    method: "PATCH",
    token: alice.token,
    headers: { "accept-language": "es" },
    json: { display_name: "x".repeat(31), source: { privacy: "nobody" } },
  });
  expect(tooLong.status).toBe(422);
  expect(tooLong.body.error).toBe(
    "La validación falló: Nombre para mostrar es demasiado largo (30 caracteres máximo), Visibilidad por defecto no está incluido en la lista",
  );
  expect(tooLong.body.details.display_name[0]).toEqual({ error: "ERR_TOO_LONG", description: "es demasiado largo (30 caracteres máximo)" });
});

test("lang in a form body (Mastodon.py): the status length error in German", async () => {
  const status = `look at me i am funny shark gawr gura: ${"a".repeat(50_000)}`;
  const headers = { "content-type": "application/x-www-form-urlencoded" };
  const post = (lang?: string) =>
    error("/api/v1/statuses", { method: "POST", token: alice.token, headers, body: new URLSearchParams({ status, ...(lang && { lang }) }).toString() });
  expect((await post()).body.error).toBe("Validation failed: Text character limit of 500 exceeded");
  expect(await post("de")).toMatchObject({
    status: 422,
    language: "de",
    body: { error: "Validierung fehlgeschlagen: Text Zeichenlimit von 500 überschritten" },
  });
});

test("authentication and missing parameters; unknown text stays English", async () => {
  const unauthenticated = await error("/api/v1/accounts/verify_credentials?lang=de", { token: "bad" });
  expect(unauthenticated).toMatchObject({ status: 401, body: { error: "Das Zugriffstoken ist ungültig" } });
  const missing = await error("/api/v1/accounts/lookup?lang=fr");
  expect(missing).toMatchObject({ status: 400, body: { error: "paramètre manquant ou vide : acct" } });
  const unknown = await error("/api/v2/notifications?expand_accounts=none&lang=de", { token: alice.token });
  expect(unknown).toMatchObject({ status: 400, body: { error: "expand_accounts must be one of full, partial_avatars" } });
  const file = await error("/api/v2/media?lang=de", { method: "POST", token: alice.token, body: new FormData() });
  expect(file).toMatchObject({ status: 422, body: { error: "Validierung fehlgeschlagen: Datei muss ausgefüllt werden" } });
});

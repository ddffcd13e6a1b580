// Moderation as the operator does it (the domain calls behind `warren` and the admin API, src/domain/admin/),
// for tests of what these states do elsewhere. The admin API's own tests go through HTTP.
import { performAccountAction } from "../../src/domain/admin/accounts-actions.ts";
import type { TestApp } from "./app.ts";

const act = (t: TestApp, publicAccountId: string, type: "suspend" | "silence" | "sensitive" | "disable") =>
  performAccountAction(t.deps, null, publicAccountId, { type, sendEmailNotification: false });

export const suspendAccount = (t: TestApp, publicAccountId: string) => act(t, publicAccountId, "suspend");
export const silenceAccount = (t: TestApp, publicAccountId: string) => act(t, publicAccountId, "silence");

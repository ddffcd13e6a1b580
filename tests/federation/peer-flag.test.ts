// A Flag from another server (the non-Fedify test peer, Mastodon's shape: sent by its instance actor, an
// Application) about a local account and its statuses becomes an admin report that staff are notified of;
// a Flag from a domain whose block rejects reports, or about nothing of ours, files nothing.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startPeer, type Peer, type PeerActor } from "../peer/server.ts";
import { json, startInstance, stopInstance, type Instance } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";
import { staffUser } from "../http/reports-helpers.ts";
import { eventually } from "../helpers/eventually.ts";

let warren: Instance;
let peer: Peer;
let reporter: PeerActor;
let alice: Awaited<ReturnType<typeof signedInUser>>;
let admin: Awaited<ReturnType<typeof staffUser>>;
const aliceUri = () => `http://${warren.domain}/users/alice`;

beforeAll(async () => {
  warren = await startInstance();
  alice = await signedInUser(warren.t, "alice");
  admin = await staffUser(warren.t, "Admin");
  peer = startPeer({ flavour: "mastodon" });
  reporter = peer.actor("actor");
  reporter.document = { ...reporter.document, type: "Application" };
});
afterAll(async () => {
  peer.stop();
  await stopInstance(warren);
});

const reports = () => json(warren, "/api/v1/admin/reports", admin.token);

test("a Flag about a local account and one of its statuses becomes a report staff are notified of", async () => {
  const status = await json(warren, "/api/v1/statuses", alice.token, {
    method: "POST", body: JSON.stringify({ status: "something reportable" }), headers: { "content-type": "application/json" },
  });
  const flag = { id: peer.newActivityId(reporter, "flag"), type: "Flag", actor: reporter.id, content: "Spam <b>again</b>", object: [aliceUri(), status.uri, `${peer.base}/users/nobody`] };
  expect((await peer.send(reporter, `http://${warren.domain}/inbox`, flag)).status).toBe(202);
  const [report] = await eventually(async () => {
    const listed = await reports();
    return listed.length > 0 && listed;
  });
  expect(report.target_account.account.acct).toBe("alice");
  expect(report.account.account.acct).toBe(`actor@${peer.domain}`);
  expect(report.comment).toBe("Spam again");
  expect(report.statuses.map((s: any) => s.id)).toEqual([status.id]);
  const notified = await eventually(async () => {
    const list = await json(warren, "/api/v1/notifications?types[]=admin.report", admin.token);
    return list.length > 0 && list;
  });
  expect(notified[0].report.id).toBe(report.id);
  // The same Flag delivered again (its inbox idempotency spent) files nothing new.
  expect((await peer.send(reporter, `http://${warren.domain}/inbox`, flag)).status).toBe(202);
  await warren.t.deps.jobs.drain();
  expect((await reports()).length).toBe(1);
});

test("a Flag from a domain whose block rejects reports files nothing", async () => {
  const before = (await reports()).length;
  const block = await warren.t.request("/api/v1/admin/domain_blocks", {
    method: "POST", token: admin.token, json: { domain: "127.0.0.1", severity: "noop", reject_reports: true },
  });
  expect(block.status).toBe(200);
  const flag = { id: peer.newActivityId(reporter, "flag"), type: "Flag", actor: reporter.id, content: "again", object: [aliceUri()] };
  expect((await peer.send(reporter, `http://${warren.domain}/inbox`, flag)).status).toBe(202);
  await warren.t.deps.jobs.drain();
  expect((await reports()).length).toBe(before);
});

// Seeds a running bench Warren (same data directory, run through Warren.script) with many public statuses by
// one remote author, too many to post through the API in a bench run. Each status goes through what status
// creation does to the store (insertStatus, then the public, media and hashtag rows of distribute.ts) and into
// the reader's home as fan-out would put it (addToHome), in batches of FAN_OUT_BATCH per transaction. No jobs:
// the reader's home row is the fan-out's only result. Every 1000th status carries a media id.
//
//   bun bench/scenarios/seed-statuses.ts <count> <reader account id>
// prints {"authorId": …, "newestId": …}
import { createDeps } from "../../src/app.ts";
import { addToHome, FAN_OUT_BATCH, putPublicEntries } from "../../src/domain/timelines/distribute.ts";
import { newId } from "../../src/lib/ids.ts";
import { insertAccount } from "../../src/store/accounts.ts";
import { putFollow } from "../../src/store/relationships.ts";
import { insertStatus } from "../../src/store/statuses.ts";
import type { AccountRecord } from "../../src/model/accounts.ts";
import type { StatusRecord } from "../../src/model/statuses.ts";

const MEDIA_EVERY = 1000;

const [countArg, readerArg] = process.argv.slice(2);
const count = Number(countArg);
const readerId = readerArg!.padStart(18, "0");
const { store } = createDeps();

function remoteAuthor(now: number): AccountRecord {
  const actor = "https://loud.example/users/loud";
  return {
    v: 1, id: newId(now), username: "loud", domain: "loud.example", displayName: "Loud", note: "", noteSource: "", fields: [], locked: false,
    bot: false, group: false, discoverable: true, indexable: true, hideCollections: false, avatarUrl: null, avatarDescription: "", headerUrl: null,
    headerDescription: "", createdAt: now, uri: actor, url: "https://loud.example/@loud", inbox: `${actor}/inbox`, sharedInbox: "https://loud.example/inbox",
    outbox: `${actor}/outbox`, followersUrl: `${actor}/followers`, followingUrl: `${actor}/following`, statusesCount: 0, followersCount: 0,
    followingCount: 0, lastStatusAt: null, suspended: false, silenced: false, memorial: false,
  };
}

function statusOf(author: AccountRecord, i: number, at: number): StatusRecord {
  const id = newId(at);
  return {
    v: 1, id, accountId: author.id, uri: `${author.uri}/statuses/${id}`, url: `${author.url}/${id}`, local: false, text: "",
    content: `<p>Status ${i} from far away</p>`, spoilerText: "", sensitive: false, visibility: "public", language: "en", inReplyToId: null,
    inReplyToAccountId: null, reblogOfId: null, applicationId: null, mentionIds: [], tags: [], mediaIds: i % MEDIA_EVERY === 0 ? [`${i}`] : [],
    repliesCount: 0, reblogsCount: 0, favouritesCount: 0, createdAt: at, editedAt: null, deletedAt: null,
  };
}

// One millisecond apart, ending now: the ids spread over `count` ms, as a long-lived feed's do.
const start = Date.now() - count;
const author = remoteAuthor(start - 1000);
await store.write(() => {
  insertAccount(store, author);
  putFollow(store, { v: 1, id: newId(start - 500), accountId: readerId, targetId: author.id, reblogs: true, notify: false, languages: null, createdAt: start, uri: null });
});
let newestId = "";
for (let from = 0; from < count; from += FAN_OUT_BATCH) {
  await store.write(() => {
    for (let i = from; i < Math.min(count, from + FAN_OUT_BATCH); i++) {
      const status = statusOf(author, i, start + i);
      insertStatus(store, status);
      putPublicEntries(store, status);
      addToHome(store, readerId, status);
      newestId = status.id;
    }
  });
}
await store.close();
console.log(JSON.stringify({ authorId: author.id, newestId }));

// The federation's door for src/reactions: the senders of activities for local events (GoToSocial's
// processing/workers/federate.go). Each loads its module on first use, so a process or worker thread that
// sends nothing never loads Fedify (its import alone takes ~0.6 s, doubling a job worker's start-up).
type Sender = (...args: any[]) => Promise<void>;

/** `name` of the module `load` brings, called once it has loaded. */
const lazily =
  <M extends Record<K, Sender>, K extends keyof M>(load: () => Promise<M>, name: K) =>
  async (...args: Parameters<M[K]>): Promise<void> =>
    (await load())[name](...args);

const follows = () => import("./follows.ts");
const blocks = () => import("./blocks.ts");
const profiles = () => import("./profiles.ts");
const moves = () => import("./moves.ts");
const accountDeletion = () => import("./account-deletion.ts");
const flags = () => import("./flags.ts");
const polls = () => import("./poll-votes-out.ts");
const quotes = () => import("./quotes.ts");
const statuses = () => import("./status-delivery.ts");

export const sendFollow = lazily(follows, "sendFollow");
export const sendAcceptOf = lazily(follows, "sendAcceptOf");
export const sendRejectOf = lazily(follows, "sendRejectOf");
export const sendUnfollow = lazily(follows, "sendUnfollow");
export const sendBlock = lazily(blocks, "sendBlock");
export const sendUnblock = lazily(blocks, "sendUnblock");
export const sendProfileUpdate = lazily(profiles, "sendProfileUpdate");
export const sendMove = lazily(moves, "sendMove");
export const sendActorDelete = lazily(accountDeletion, "sendActorDelete");
export const sendFlag = lazily(flags, "sendFlag");
export const sendPollVote = lazily(polls, "sendPollVote");
export const sendPollResults = lazily(polls, "sendPollResults");
export const sendQuoteRequest = lazily(quotes, "sendQuoteRequest");
export const sendQuoteUpdate = lazily(quotes, "sendQuoteUpdate");
export const sendAuthorizationDelete = lazily(quotes, "sendAuthorizationDelete");
export const sendCreate = lazily(statuses, "sendCreate");
export const sendUpdate = lazily(statuses, "sendUpdate");
export const sendDelete = lazily(statuses, "sendDelete");
export const sendAnnounce = lazily(statuses, "sendAnnounce");
export const sendUndoAnnounce = lazily(statuses, "sendUndoAnnounce");
export const sendLike = lazily(statuses, "sendLike");
export const sendUndoLike = lazily(statuses, "sendUndoLike");

// Collections (Mastodon 4.6): an account's curated list of accounts it recommends following (docs/collections.md).

export interface CollectionRecord {
  v: 1;
  id: string;
  accountId: string;
  name: string;
  description: string;
  language: string | null;
  /** A hashtag name (lower-case, without `#`), or null. */
  tag: string | null;
  sensitive: boolean;
  discoverable: boolean;
  createdAt: number;
  updatedAt: number;
}

/** Mastodon's CollectionItem states; Warren writes only accepted items (local accounts that allow featuring). */
export type CollectionItemState = "pending" | "accepted" | "rejected" | "revoked";

export interface CollectionItemRecord {
  v: 1;
  id: string;
  collectionId: string;
  accountId: string;
  state: CollectionItemState;
  createdAt: number;
}

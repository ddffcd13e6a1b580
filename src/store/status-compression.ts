// How status records are stored compressed (migration 8 compresses the older ones: store/pack-records.ts).
/**
 * lmdb-js options of the statuses keyspace (schema 8, docs/disk.md): a record of STATUS_COMPRESSION_THRESHOLD
 * bytes or more is stored LZ4-compressed (a 4-byte header whose first byte, 254, no msgpack record starts
 * with, then the compressed bytes), which takes a third off the keyspace: a status's text and its rendered
 * HTML say the same words twice. No dictionary: lmdb-js's default one is a file of its package, which a newer
 * release could change under records compressed with it. Records written before schema 8 read as they are.
 */
export const STATUS_COMPRESSION_THRESHOLD = 128;
export const STATUSES_OPTIONS = { compression: { threshold: STATUS_COMPRESSION_THRESHOLD, dictionary: Buffer.alloc(0) } } as const;

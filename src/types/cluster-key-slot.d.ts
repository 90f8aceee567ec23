/** cluster-key-slot ships no types: the Redis Cluster hash slot (CRC16 mod 16384, hash tags honoured). */
declare module 'cluster-key-slot' {
  /** The slot of one key. */
  function generate(key: string | Buffer): number;
  namespace generate {
    /** The common slot of all keys, or -1 when they do not share one. */
    function generateMulti(keys: ReadonlyArray<string | Buffer>): number;
  }
  export = generate;
}

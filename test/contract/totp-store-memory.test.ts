import { InMemoryTotpStore } from '../../src/adapters/memory/totp-store';
import { describeTotpStoreContract } from './totp-store.contract';

// One process: both "instances" share the one map (the in-memory store is not shared across processes).
describeTotpStoreContract('in-memory (InMemoryTotpStore)', async () => {
  const store = new InMemoryTotpStore();
  return { a: store, b: store };
});

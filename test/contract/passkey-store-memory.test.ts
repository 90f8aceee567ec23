import { InMemoryPasskeyStore } from '../../src/adapters/directory/in-memory-passkey-store';
import { describePasskeyStoreContract } from './passkey-store.contract';

describePasskeyStoreContract('in memory (beside the embedded directory)', async () => ({ store: new InMemoryPasskeyStore() }));

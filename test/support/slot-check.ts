/**
 * A Redis client that records every command whose keys do not share one cluster slot, so the
 * tagged key layout can be checked on a single server (which, unlike a cluster, would run a
 * cross-slot script without complaint). Auto-pipelining is off so every command passes
 * sendCommand one by one.
 */
import calculateSlot from 'cluster-key-slot';
import Redis, { type Command } from 'ioredis';

export interface SlotCheckedClient {
  readonly client: Redis;
  /** "<command> <keys>" of every command whose keys span several slots. */
  readonly violations: string[];
  /** How many commands carried two keys or more (a check that the checker saw something). */
  readonly multiKeyCommands: () => number;
}

export function slotCheckedClient(url: string): SlotCheckedClient {
  const client = new Redis(url, { enableAutoPipelining: false, maxRetriesPerRequest: 1 });
  const violations: string[] = [];
  let multi = 0;
  const send = client.sendCommand.bind(client);
  client.sendCommand = ((command: Command, stream?: unknown) => {
    const keys = command.getKeys().map(String);
    if (keys.length > 1) {
      multi += 1;
      if (calculateSlot.generateMulti(keys) < 0) violations.push(`${command.name} ${keys.join(' ')}`);
    }
    return send(command, stream as never);
  }) as typeof client.sendCommand;
  return { client, violations, multiKeyCommands: () => multi };
}

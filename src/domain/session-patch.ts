/**
 * A change to some fields of a session record, applied to the record as it is stored at the moment of the write
 * (SessionStore.patch): how and when its user last proved who they are (step-up), its pending required actions, its
 * attributes. The rest (the principal's roles and permissions, the expiry) belongs to other writers, which a patch
 * never writes back.
 */
import type { AuthMethod, RequiredAction, SessionRecord } from './session';

/** The fields to change; a field left out stays as it is. `requiredActions` empty removes the field (a full session). */
export interface SessionPatch {
  readonly authTime?: number;
  readonly amr?: readonly AuthMethod[];
  readonly requiredActions?: readonly RequiredAction[];
  readonly attrs?: Readonly<Record<string, string>>;
}

/** `record` with `patch` applied. */
export function applySessionPatch(record: SessionRecord, patch: SessionPatch): SessionRecord {
  const next: SessionRecord = {
    ...record,
    ...(patch.authTime !== undefined ? { authTime: patch.authTime } : {}),
    ...(patch.amr !== undefined ? { amr: [...patch.amr] } : {}),
    ...(patch.attrs !== undefined ? { attrs: { ...patch.attrs } } : {}),
  };
  if (patch.requiredActions === undefined) return next;
  const { requiredActions: _old, ...rest } = next;
  return patch.requiredActions.length > 0 ? { ...rest, requiredActions: [...patch.requiredActions] } : rest;
}

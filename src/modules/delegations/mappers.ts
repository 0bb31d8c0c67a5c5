// The delegations area's mappers: its rows as the API objects its responses.ts declares (no SQL, no I/O).
import type { Delegation } from './responses.ts';
import type { DelegationRow } from './store.ts';

export const toApiDelegation = ({ seq: _seq, ...row }: DelegationRow): Delegation => row;

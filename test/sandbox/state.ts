// The mutable world of one sandbox. Mutated in place (never replaced) so that a test holding
// `sandbox.state` keeps seeing the live data after reset().
import { SEED_CONTACTS, SEED_SENDERS, SEED_TEMPLATES, SMS_START_BALANCE, seedGroups } from './seed';
import type { SandboxState, Template } from './types';

function freshState(groupCount: number): SandboxState {
	const templates: Record<number, Template[]> = {};
	for (const [senderId, list] of Object.entries(SEED_TEMPLATES)) {
		templates[Number(senderId)] = structuredClone([...list]);
	}
	const state: SandboxState = {
		senders: structuredClone([...SEED_SENDERS]),
		templates,
		media: [],
		contacts: structuredClone([...SEED_CONTACTS]),
		groups: seedGroups(groupCount),
		sentMessages: [],
		sendCountByDestination: {},
		smsMessages: [],
		smsBalance: SMS_START_BALANCE,
	};
	pruneMemberships(state);
	recountGroups(state);
	return state;
}

export function createState(groupCount: number): SandboxState {
	return freshState(groupCount);
}

export function resetState(state: SandboxState, groupCount: number): void {
	Object.assign(state, freshState(groupCount));
}

/** Changes the number of groups at run time, keeping created contacts and their memberships. */
export function applyGroupCount(state: SandboxState, groupCount: number): void {
	if (state.groups.length === groupCount) return;
	const existing = new Map(state.groups.map((g) => [g.id, g]));
	state.groups = seedGroups(groupCount).map((g) => existing.get(g.id) ?? g);
	pruneMemberships(state);
	recountGroups(state);
}

/** Drops memberships of groups that do not exist (e.g. a seed contact in group 3 with 2 groups). */
function pruneMemberships(state: SandboxState): void {
	const ids = new Set(state.groups.map((g) => g.id));
	for (const c of state.contacts) c.group_ids = c.group_ids.filter((id) => ids.has(id));
}

/** total_contacts is derived from memberships, so it can never drift from the contacts. */
export function recountGroups(state: SandboxState): void {
	const counts = new Map<number, number>();
	for (const c of state.contacts) {
		for (const id of c.group_ids) counts.set(id, (counts.get(id) ?? 0) + 1);
	}
	for (const g of state.groups) g.total_contacts = counts.get(g.id) ?? 0;
}

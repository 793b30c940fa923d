/**
 * "Drop Repeated Reports": a report whose message id and status were already seen by this trigger
 * is dropped. Kept in this process's memory, bounded per trigger (the oldest forgotten first), and
 * cleared when the workflow is deactivated: n8n's workflow static data is saved only after an
 * execution, too late for a burst of posts arriving together. A repeat that reaches another n8n
 * process (several webhook processes) or arrives after a restart is not caught; the README says so.
 */
const REMEMBERED_PER_TRIGGER = 50_000;

const memory = new Map<string, Set<string>>();

/** True the first time a key is seen by this trigger; false for a repeat. */
export function firstTime(trigger: string, key: string): boolean {
	let seen = memory.get(trigger);
	if (!seen) {
		seen = new Set();
		memory.set(trigger, seen);
	}
	if (seen.has(key)) return false;
	seen.add(key);
	if (seen.size > REMEMBERED_PER_TRIGGER) {
		// A Set iterates in insertion order: the first is the oldest.
		const oldest = seen.values().next().value as string;
		seen.delete(oldest);
	}
	return true;
}

/**
 * Un-sees keys: their post was not taken (the execution holding them did not start, 5xx), so
 * SMSLeopard posts it again, and that repeat must not be dropped.
 */
export function unsee(trigger: string, keys: string[]): void {
	const seen = memory.get(trigger);
	for (const key of keys) seen?.delete(key);
}

export function forget(trigger: string): void {
	memory.delete(trigger);
}

/**
 * A send whose answer is lost after the sandbox acted on it: the message is recorded as sent, then
 * the connection is reset (resetRate 1, afterHandling) for that one send only. For the tests of what
 * a stopped run reports as sent, maybe sent and not sent, in n8n's engine and in real n8n.
 */
import type { Sandbox } from './index';
import type { SandboxHooks } from './types';

export interface LostAnswer {
	/** Pass to startSandbox. */
	hooks: SandboxHooks;
	/** The sandbox those hooks belong to, once started. */
	attach(sandbox: Sandbox): void;
	/** Loses the answer of the `sendNumber`-th send from now on (2 or more: the listings the first send
	 * reads come before it; 0: none). */
	onSend(sendNumber: number): void;
}

export function lostAnswer(): LostAnswer {
	let sandbox: Sandbox | undefined;
	let target = 0;
	let seen = 0;
	// The fault hits the next authorised request, so it is armed right after the send before it.
	const arm = () =>
		sandbox?.setOptions(
			seen + 1 === target ? { resetRate: 1, resetMode: 'afterHandling' } : { resetRate: 0 },
		);
	return {
		hooks: {
			onResponse(entry) {
				if (!entry.path.endsWith('/send')) return;
				seen++;
				arm();
			},
		},
		attach(started) {
			sandbox = started;
		},
		onSend(sendNumber) {
			target = sendNumber;
			seen = 0;
			arm();
		},
	};
}

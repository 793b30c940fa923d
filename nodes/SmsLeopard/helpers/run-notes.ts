/**
 * A note above the node's output (an n8n execution hint), given once per execution however many
 * items lead to it: the one way every operation tells the user something beside its items.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import type { ExecutionState } from './execution-state';

export function noteOncePerRun(
	context: IExecuteFunctions,
	state: ExecutionState,
	message: string,
): void {
	if (state.noticesGiven.has(message)) return;
	state.noticesGiven.add(message);
	context.addExecutionHints({ message, type: 'info', location: 'outputPane' });
}

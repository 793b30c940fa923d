// The `sendAnswers` knob: a send answer that leaves out what was sent, as gateways do at times. The
// messages are sent and recorded all the same; only the answer's list of recipients changes.
import type { SendAnswers } from './types';

export function shapeSendAnswer<T extends { number?: string }>(
	entries: T[],
	mode: SendAnswers,
): Array<T | Omit<T, 'number'>> {
	if (mode === 'dropLast') return entries.slice(0, -1);
	if (mode === 'noNumbers') return entries.map(({ number: _number, ...rest }) => rest);
	return entries;
}

// The depth bound on answers: parts deeper than the limit become a marker, everything else is kept,
// and the walk itself survives any depth and width.
import {
	MAX_ANSWER_DEPTH,
	TOO_DEEP,
	limitDepth,
} from '../../nodes/SmsLeopard/client/http/answer-depth';
import { deepJson, depthOf } from '../support/deepening-proxy';

describe('limitDepth', () => {
	it.each(['objects', 'arrays'] as const)(
		'cuts 100,000 levels of %s to the limit, leaving the marker at the cut',
		(shape) => {
			const answer = JSON.parse(`{"id":"m1","deep":${deepJson(100_000, shape)}}`) as Record<
				string,
				unknown
			>;
			limitDepth(answer);
			expect(answer.id).toBe('m1');
			expect(depthOf(answer)).toBe(MAX_ANSWER_DEPTH);
			expect(JSON.stringify(answer)).toContain(TOO_DEEP);
		},
	);

	it('keeps an answer within the limit exactly as it was', () => {
		const text = `{"recipients":[{"id":"a","number":"+254700000001","x":${deepJson(60, 'objects')}}]}`;
		expect(limitDepth(JSON.parse(text))).toEqual(JSON.parse(text));
	});

	it('walks a million-entry list without recursion', () => {
		const wide = Array.from({ length: 1_000_000 }, (_, i) => ({ i }));
		expect(limitDepth(wide)).toHaveLength(1_000_000);
	});

	it('leaves strings, numbers and null alone', () => {
		expect(limitDepth('text')).toBe('text');
		expect(limitDepth(null)).toBeNull();
		expect(limitDepth(42)).toBe(42);
	});
});

/**
 * docs/opt-outs.md quotes the package's one list of opt-out and opt-in words: its table holds
 * exactly OPT_OUT_WORDS and OPT_IN_WORDS, so a word added in the code shows up as missing here.
 */
import { readFileSync } from 'fs';
import path from 'path';
import { OPT_IN_WORDS, OPT_OUT_WORDS } from '../../nodes/SmsLeopard/client';

const page = readFileSync(path.join(__dirname, '../../docs/opt-outs.md'), 'utf8');
const header = page
	.split('\n')
	.findIndex((line) => /^\|\s*Opts out\s*\|\s*Opts back in\s*\|/.test(line));
const [, outCell, inCell] = page.split('\n')[header + 2].split('|');
const wordsOf = (cell: string) =>
	cell
		.replace('Swahili', '')
		.split(/[,;]/)
		.map((word) => word.trim())
		.filter(Boolean)
		.sort();

describe('docs/opt-outs.md quotes the words the trigger uses', () => {
	it('the Opts out column is OPT_OUT_WORDS, the Opts back in column OPT_IN_WORDS', () => {
		expect(header).toBeGreaterThan(0);
		expect(wordsOf(outCell)).toEqual([...OPT_OUT_WORDS].sort());
		expect(wordsOf(inCell)).toEqual([...OPT_IN_WORDS].sort());
	});
});

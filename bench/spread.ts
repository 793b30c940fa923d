/**
 * Figures from repeated runs: median with min–max, and a comparison that calls a difference smaller
 * than the runs' own spread what it is: no measurable difference.
 */
import { median } from './measure';
import { num } from './report';

export interface Spread {
	median: number;
	min: number;
	max: number;
	runs: number;
}

export function spread(values: number[]): Spread {
	const finite = values.filter(Number.isFinite);
	if (finite.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, runs: 0 };
	return {
		median: median(finite),
		min: Math.min(...finite),
		max: Math.max(...finite),
		runs: finite.length,
	};
}

/** "4.12 (3.98–4.40)". */
export function showSpread(value: Spread, digits = 2): string {
	if (value.runs === 0) return 'n/a';
	if (value.runs === 1) return num(value.median, digits);
	return `${num(value.median, digits)} (${num(value.min, digits)}–${num(value.max, digits)})`;
}

/** A rise over a baseline: every run's figure less the baseline's median, with its spread. */
export function riseOver(values: number[], baseline: Spread): Spread {
	return spread(values.map((value) => value - baseline.median));
}

/**
 * Compares two sets of runs: when their min–max ranges overlap, the difference is within the
 * spread and is reported as "no measurable difference", never as a win.
 */
export function compare(ours: Spread, theirs: Spread, unit: string, digits = 2): string {
	if (ours.runs === 0 || theirs.runs === 0) return 'n/a';
	if (ours.max >= theirs.min && theirs.max >= ours.min) return 'no measurable difference';
	const ratio = ours.median / theirs.median;
	return ours.median < theirs.median
		? `${num(ratio, 2)}× (${num(theirs.median - ours.median, digits)} ${unit} less)`
		: `${num(ratio, 2)}× (${num(ours.median - theirs.median, digits)} ${unit} more)`;
}

/** A small seeded random source (mulberry32): `below(n)` is 0 to n - 1; a failing run replays from its seed. */
export function random(seed: number): (below: number) => number {
	let state = seed >>> 0;
	return (below: number) => {
		state = (state + 0x6d2b79f5) >>> 0;
		let mixed = Math.imul(state ^ (state >>> 15), state | 1);
		mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
		return ((((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296) * below) | 0;
	};
}

/**
 * Boxes on n8n's canvas and which ones lie on each other: for the positions in an example's file
 * (canvas-layout.test.ts) and for what the editor drew (test/editor/canvas-layout.ts).
 */
export interface Box {
	name: string;
	left: number;
	top: number;
	right: number;
	bottom: number;
}

const overlap = (a: Box, b: Box) =>
	a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * Each pair of a box of `boxes` on a box of `against`, by name; each pair once when both lists are
 * the same list.
 */
export function overlapping(boxes: Box[], against: Box[]): string[][] {
	return boxes.flatMap((box, index) =>
		(boxes === against ? against.slice(index + 1) : against)
			.filter((other) => overlap(box, other))
			.map((other) => [box.name, other.name]),
	);
}

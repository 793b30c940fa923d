/**
 * Where n8n's editor draws a workflow's nodes and sticky notes, read from the page: the boxes as
 * the marketer sees them, to find a node drawn on a note (it hides the note's words) or on another
 * node. test/examples/canvas-layout.test.ts checks the files' positions; this checks the drawing.
 */
import type { Page } from 'playwright-core';

export interface DrawnBox {
	name: string;
	left: number;
	top: number;
	right: number;
	bottom: number;
}

export interface CanvasLayout {
	notes: DrawnBox[];
	nodes: DrawnBox[];
}

/** The few DOM calls used in the page (the project's types do not include the DOM). */
interface PageElement {
	getAttribute(name: string): string | null;
	querySelector(selector: string): PageElement | null;
	querySelectorAll(selector: string): ArrayLike<PageElement>;
	getBoundingClientRect(): { left: number; top: number; right: number; bottom: number };
}

/**
 * Each drawn node and note by its id (Vue Flow's `data-id`, the workflow's node id): n8n 2.8 draws a
 * note as `sticky`, later versions as `canvas-sticky-note-node`.
 */
export async function canvasLayout(page: Page): Promise<CanvasLayout> {
	return await page.locator('#app').evaluate((root) => {
		const app = root as unknown as PageElement;
		const boxOf = (name: string, element: PageElement) => {
			const rect = element.getBoundingClientRect();
			return { name, left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom };
		};
		const layout = { notes: [] as DrawnBox[], nodes: [] as DrawnBox[] };
		for (const drawn of Array.from(app.querySelectorAll('.vue-flow__node'))) {
			const id = drawn.getAttribute('data-id') ?? '';
			const note = drawn.querySelector(
				'[data-test-id="sticky"], [data-test-id="canvas-sticky-note-node"]',
			);
			// A node's own box, without its name drawn under it.
			const body = drawn.querySelector(
				'[data-test-id="canvas-default-node"], [data-test-id="canvas-trigger-node"]',
			);
			if (note) layout.notes.push(boxOf(id, note));
			else layout.nodes.push(boxOf(id, body ?? drawn));
		}
		return layout;
	});
}

const overlap = (a: DrawnBox, b: DrawnBox) =>
	a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** Each pair drawn one on the other: [note, node] and [node, node], by name. */
export function drawnOnEachOther(layout: CanvasLayout): string[][] {
	const { notes, nodes } = layout;
	return [
		...notes.flatMap((note) =>
			nodes.filter((node) => overlap(note, node)).map((node) => [note.name, node.name]),
		),
		...nodes.flatMap((node, index) =>
			nodes
				.slice(index + 1)
				.filter((other) => overlap(node, other))
				.map((other) => [node.name, other.name]),
		),
	];
}

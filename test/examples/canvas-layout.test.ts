/**
 * What a marketer sees on the canvas after importing any file of examples/: every node in the open.
 * n8n draws a sticky note behind the nodes, so a node on a note hides the note's words, and a node
 * on another node hides that node (Campaign Summary and Answer Now? once sat on one spot). Every
 * file of the folder is read, so a new example is held to it too.
 */
import { readdirSync, readFileSync } from 'fs';
import * as path from 'path';

import { type Box, overlapping } from './canvas-boxes';

const EXAMPLES = path.resolve(__dirname, '../../examples');
/** n8n's canvas draws a node in a box of about this size from its position. */
const NODE_BOX = 100;

interface CanvasNode {
	name: string;
	type: string;
	position: [number, number];
	parameters: { width?: number; height?: number };
}

const files = readdirSync(EXAMPLES).filter((file) => file.endsWith('.json'));

describe.each(files)('examples/%s on the canvas', (file) => {
	const { nodes } = JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as {
		nodes: CanvasNode[];
	};
	const isNote = (node: CanvasNode) => node.type === 'n8n-nodes-base.stickyNote';
	const boxOf = (node: CanvasNode): Box => {
		const [left, top] = node.position;
		// A note's size is in its parameters (n8n's default 240 x 160).
		const width = isNote(node) ? (node.parameters.width ?? 240) : NODE_BOX;
		const height = isNote(node) ? (node.parameters.height ?? 160) : NODE_BOX;
		return { name: node.name, left, top, right: left + width, bottom: top + height };
	};
	const notes = nodes.filter(isNote).map(boxOf);
	const others = nodes.filter((node) => !isNote(node)).map(boxOf);

	it('puts no node on a sticky note, where it would hide the note’s words', () => {
		expect(overlapping(notes, others)).toEqual([]);
	});

	it('puts no node on another node, or note on note', () => {
		expect(overlapping(others, others)).toEqual([]);
		expect(overlapping(notes, notes)).toEqual([]);
	});
});

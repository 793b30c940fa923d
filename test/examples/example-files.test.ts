/**
 * What a marketer gets when importing an example of examples/ (Workflows > Import from File): the
 * credential by name only, no secret and no address of a test server, notes that say what to
 * change, and only parameters the node knows (n8n drops unknown ones silently on save).
 * test/e2e/examples.e2e.test.ts runs the same files in real n8n.
 */
import { existsSync, readFileSync } from 'fs';
import * as path from 'path';

import { SmsLeopard } from '../../nodes/SmsLeopard/SmsLeopard.node';
import {
	EXAMPLES_DIR,
	EXAMPLE_CREDENTIAL_NAME,
	EXAMPLE_FILES,
	formPath,
	readExample,
} from '../e2e/workflows/examples';
import { expectShareable } from './shareable-file';

const NODE_TYPE = 'n8n-nodes-smsleopard.smsLeopard';
const knownParameters = new Set(new SmsLeopard().description.properties.map((entry) => entry.name));

describe.each(EXAMPLE_FILES)('examples/%s', (file) => {
	const workflow = readExample(file);
	const text = readFileSync(path.join(EXAMPLES_DIR, file), 'utf8');
	const notes = workflow.nodes
		.filter((entry) => entry.type === 'n8n-nodes-base.stickyNote')
		.map((entry) => String(entry.parameters.content));

	it('refers to the SMSLeopard credential by name only, and every SMSLeopard node has it', () => {
		const smsNodes = workflow.nodes.filter((entry) => entry.type === NODE_TYPE);
		expect(smsNodes.length).toBeGreaterThan(0);
		for (const entry of workflow.nodes) {
			if (entry.type === NODE_TYPE) {
				expect(entry.credentials).toEqual({
					smsLeopardApi: { id: null, name: EXAMPLE_CREDENTIAL_NAME },
				});
			} else {
				expect(entry.credentials).toBeUndefined();
			}
		}
	});

	it('holds no secret, no server address and no workflow or instance id', () => {
		expectShareable(text, workflow);
	});

	it('says in a note what to change and names the credential', () => {
		expect(notes.some((note) => note.includes('What to change'))).toBe(true);
		expect(notes.join('\n')).toContain(EXAMPLE_CREDENTIAL_NAME);
		// Pickers point at example values: the editor label says to pick one's own.
		for (const entry of workflow.nodes.filter((node) => node.type === NODE_TYPE)) {
			for (const key of ['senderNumber', 'template']) {
				const locator = entry.parameters[key] as { cachedResultName?: string } | undefined;
				if (locator) expect(locator.cachedResultName).toMatch(/pick (your|yours)/);
			}
		}
	});

	it('sets only parameters the SMSLeopard node has', () => {
		for (const entry of workflow.nodes.filter((node) => node.type === NODE_TYPE)) {
			const unknown = Object.keys(entry.parameters).filter((name) => !knownParameters.has(name));
			expect({ node: entry.name, unknown }).toEqual({ node: entry.name, unknown: [] });
		}
	});

	it('starts with a form that has a fixed path, and the samples its notes name exist', () => {
		expect(formPath(workflow)).toMatch(/^smsleopard-[a-z-]+$/);
		for (const sample of notes.join('\n').match(/examples\/[\w.-]+/g) ?? []) {
			expect(existsSync(path.join(EXAMPLES_DIR, '..', sample))).toBe(true);
		}
	});
});

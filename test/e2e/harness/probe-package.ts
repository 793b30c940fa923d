// A throwaway community package, written and packed in a temp folder (never the repo), whose node
// reports whether modules n8n ships (zod, form-data, n8n-workflow) resolve from an installed
// community package. It proves the harness loads packages before the real node exists.
import { packOneNodePackage } from './pack';

export const PROBE_TYPE = 'n8n-nodes-harness-probe.harnessProbe';

const nodeSource = `'use strict';
// Load-time requires, recorded rather than thrown so one run reports each of them.
function probe(name) {
	try {
		const resolved = require.resolve(name);
		require(name);
		return { ok: true, path: resolved };
	} catch (e) {
		return { ok: false, error: String(e.message).split('\\n')[0] };
	}
}
const loaded = { zod: probe('zod'), formData: probe('form-data'), n8nWorkflow: probe('n8n-workflow') };
function works(fn) {
	try { return fn(); } catch (e) { return String(e.message); }
}
const zodWorks = works(() => require('zod').z.object({ a: require('zod').z.string() }).parse({ a: 'x' }).a === 'x');
const formDataWorks = works(() => { const f = new (require('form-data'))(); f.append('a', 'b'); return f.getBoundary().length > 0; });
class HarnessProbe {
	constructor() {
		this.description = {
			displayName: 'Harness Probe', name: 'harnessProbe', group: ['transform'], version: 1,
			description: 'Reports module resolution', defaults: { name: 'Harness Probe' },
			inputs: ['main'], outputs: ['main'], properties: [],
		};
	}
	async execute() {
		const count = this.getInputData().length;
		return [[{ json: { ...loaded, zodWorks, formDataWorks, inputCount: count, node: process.version } }]];
	}
}
module.exports = { HarnessProbe };
`;

/** Writes and packs the probe package; returns the tarball path. */
export function packProbePackage(): string {
	return packOneNodePackage('n8n-nodes-harness-probe', 'HarnessProbe', nodeSource);
}

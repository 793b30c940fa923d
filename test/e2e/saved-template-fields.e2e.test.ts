/**
 * Workflows saved by every earlier version of Send Template (test/fixtures/template-fields/, one
 * per shape of the field builder) in real n8n with the packed package: each template's node sends
 * what it sent before, and what is wrong for another reason is refused for that reason, never as
 * "mapped for another template". Checked on n8n's output and on what the sandbox received.
 */
import { nodeItems, packedForThisFile } from './harness';
import { selectedVersions } from './matrix';
import { expectOk, useSandboxedN8n } from './sandboxed-n8n';
import { type WorkflowNode, code, smsLeopard, trigger, workflow } from './workflows/build';
import {
	SAVED_MEDIA,
	SAVED_SHAPES,
	SENT_BODY,
	SENT_FILE_NAME,
	SHAPE_NAMES,
	type SavedShape,
	savedNode,
	savedVersion,
} from '../fixtures/template-fields/saved-nodes';

const CREDENTIAL = { id: 'e2eSavedFields0001', name: 'SMSLeopard sandbox' };
const tarball = packedForThisFile();

/** Each refused case: its node and the words of its own reason. */
const REFUSED: Array<[name: string, reason: RegExp]> = [
	['Phone Button Value', /phone number button/i],
	['CRLF In Header', /line break|new line/i],
	['PDF For Image Header', /PDF|image/i],
	['6 MB Image', /5 MB|too large|larger/i],
];

/** A Code node giving the customer, with a PDF and a 6 MB PNG as binary fields. */
const customer = code(
	'Customer',
	`[{ json: { phone: '+254700600001', name: 'Amina' }, binary: {
		pdf: { data: Buffer.from('%PDF-1.4 catalogue').toString('base64'), mimeType: 'application/pdf', fileName: 'catalogue.pdf' },
		big: { data: Buffer.alloc(6 * 1024 * 1024, 1).toString('base64'), mimeType: 'image/png', fileName: 'banner.png' },
	} }]`,
);

function savedWorkflow(saved: SavedShape) {
	// The version that saved the shape: up to 1.2 the document's name is Document File Name below.
	const send = (name: string, parameters: Record<string, unknown>): WorkflowNode => ({
		...smsLeopard(name, CREDENTIAL, parameters, { onError: 'continueRegularOutput' }),
		typeVersion: savedVersion(saved),
	});
	const sends = SHAPE_NAMES.map((name) => send(`Send ${name}`, savedNode(saved, name)));
	const promoWith = (field: string) => ({
		...savedNode(saved, 'promo'),
		headerMedia: 'binary',
		binaryPropertyName: field,
	});
	const refused = [
		send('Phone Button Value', savedNode(saved, 'call_us', { button_0_url: 'A-1001' })),
		send('CRLF In Header', savedNode(saved, 'welcome', { header_1: '={{ "Amina\\r\\nBcc: x" }}' })),
		send('PDF For Image Header', promoWith('pdf')),
		send('6 MB Image', promoWith('big')),
	];
	const start = trigger();
	return workflow(
		`Saved by ${saved.file}`,
		[...sends, ...refused].map((node) => [start, customer, node]),
	);
}

describe.each(selectedVersions())('n8n %s', (version) => {
	// The run's shared n8n (harness/shared-n8n.ts): these tests read only their own runs.
	const n8n = useSandboxedN8n(
		version,
		tarball,
		(data) => [{ ...CREDENTIAL, type: 'smsLeopardApi', data }],
		{},
		{},
		{ shared: true },
	);

	it.each(SAVED_SHAPES.map((saved) => [saved.file, saved] as const))(
		'a workflow saved by the version of %s sends as before, and refuses for their own reason',
		async (_file, saved) => {
			n8n.sandbox.state.media.push(...SAVED_MEDIA);
			const result = await n8n.run(savedWorkflow(saved));
			expectOk(result);
			for (const name of SHAPE_NAMES) {
				const [item] = nodeItems(result.runData, `Send ${name}`);
				expect({ name, item }).toMatchObject({
					name,
					item: { outcome: 'sent', bodyText: SENT_BODY[name] },
				});
			}
			for (const [name, reason] of REFUSED) {
				const [item] = nodeItems(result.runData, name);
				const error = JSON.stringify(item?.error ?? item);
				expect({ name, error }).toEqual({ name, error: expect.stringMatching(reason) });
				expect(error).not.toContain('were mapped for');
			}
			// One message per template node; nothing from the refused ones.
			expect(n8n.sandbox.state.sentMessages).toHaveLength(SHAPE_NAMES.length);
			// The document's file name as the marketer typed it, whichever version saved it.
			const fileNames = n8n.sandbox.state.sentMessages.map((message) => message.fileName);
			expect(fileNames.filter(Boolean)).toEqual([SENT_FILE_NAME.invoice]);
		},
		240_000,
	);
});

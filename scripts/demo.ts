/**
 * `npm run demo`: the node inside a real n8n, against the local sandbox. Packs the package, installs
 * it into a fresh n8n user folder, runs a workflow that uses every operation with `n8n execute`, and
 * prints what happened.
 */
import { executeWorkflow, nodeItems, removeUserFolder } from '../test/e2e/harness';
import { startSandbox } from '../test/sandbox';
import { DEMO_N8N_VERSION, prepareDemoFolder, step } from './demo-support';

type Json = Record<string, unknown>;

function table(rows: string[][]): string {
	const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
	return rows
		.map((row) => '    ' + row.map((cell, column) => cell.padEnd(widths[column])).join('  '))
		.join('\n');
}

function messages(items: Json[]): string {
	return table(
		items.map((item) => [
			String(item.number),
			String(item.messageId),
			`cost ${Number(item.cost).toFixed(2)}`,
			String(item.status),
		]),
	);
}

/** Per recipient: what the node counted before sending, and what it cost. */
function smsMessages(items: Json[]): string {
	return table(
		items.map((item) => {
			const parts = Number(item.parts);
			const unusual = Array.isArray(item.nonGsmCharacters)
				? ` (${item.nonGsmCharacters.join('')})`
				: '';
			return [
				String(item.number),
				String(item.messageId),
				`${parts} part${parts === 1 ? '' : 's'}, ${String(item.encoding)}${unusual}`,
				`cost ${String(item.currency)} ${Number(item.cost).toFixed(2)}`,
				String(item.status),
			];
		}),
	);
}

async function main(): Promise<void> {
	const started = Date.now();
	// Enough groups for Return All to follow several pages (100 per page).
	const sandbox = await startSandbox({ groupCount: 230 });
	step(`sandbox listening: chat ${sandbox.chatUrl}, contacts ${sandbox.contactsUrl}`);
	const { folder, workflowId } = await prepareDemoFolder(sandbox);
	try {
		step(`running the demo workflow with n8n ${DEMO_N8N_VERSION} (n8n execute)`);
		const run = await executeWorkflow(folder, workflowId);
		if (!run.ok) {
			console.error(
				'\nThe demo workflow failed:\n',
				JSON.stringify(run.error, null, 2),
				run.stderr.slice(-2000),
			);
			process.exitCode = 1;
			return;
		}
		const items = (name: string) => nodeItems(run.runData, name);
		const media = items('Upload Invoice')[0];
		const contact = items('Create Contact')[0];
		const deleted = items('Delete Contact')[0];
		const groups = items('Get Groups');
		const senders = items('Get Sender Numbers');
		const templates = items('Get Templates');
		const groupPages = sandbox.requests.filter(
			(request) => request.path === '/v1/groups/fetch',
		).length;

		console.log(
			`\nSMSLeopard demo: n8n ${DEMO_N8N_VERSION}, sandbox ${sandbox.chatUrl} and ${sandbox.contactsUrl}\n`,
		);
		console.log(
			`Media uploaded: media_id ${String(media.media_id)} (${String(media.media_type)}, ${String(media.file_name)}, ${String(media.file_size)} bytes)` +
				`, used as the document header of ${items('Send Invoice').length} invoices`,
		);
		console.log(
			`\nInvoices sent (document header, template tpl_invoice):\n${messages(items('Send Invoice'))}`,
		);
		console.log(
			`\nTracking links sent (URL button, template tpl_track_parcel):\n${messages(items('Send Tracking Link'))}`,
		);
		console.log(
			`\nContact: created #${String(contact.id)} ${String(contact.name)} ${String(contact.phone_number)} in groups 1 and 2 with 2 custom attributes; ` +
				`deleted: ${String(deleted.deleted)} ("${String(deleted.message)}")`,
		);
		console.log(
			`\nGroups: ${groups.length} listed over ${groupPages} page(s), e.g. ${groups
				.slice(0, 3)
				.map((group) => `#${String(group.id)} ${String(group.name)}`)
				.join(', ')}, ...`,
		);
		console.log(
			`\nSender numbers: ${senders.map((sender) => `${String(sender.phone_number)} (phone_number_id ${String(sender.phone_number_id)})`).join(', ')}`,
		);
		console.log(
			`\nApproved templates of the first sender: ${templates.map((template) => String(template.name)).join(', ')}`,
		);
		const sms = items('Send SMS');
		const smsRequests = sandbox.requests.filter((request) => request.path === '/v1/sms/send');
		const balance = items('SMS Balance')[0];
		console.log(
			`\nSMS sent (one text customized per recipient, ${sms.length} recipients in ${smsRequests.length} request(s)):\n${smsMessages(sms)}`,
		);
		console.log(
			`\nSMS balance after the sends: ${String(balance.currency)} ${Number(balance.balance).toFixed(2)}`,
		);
		console.log(
			`\nThe sandbox received ${sandbox.requests.length} requests, ${sandbox.state.sentMessages.length} WhatsApp messages and ${sandbox.state.smsMessages.length} SMS sent; done in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
		);
	} finally {
		await sandbox.stop();
		if (!process.env.KEEP_DEMO_FOLDER) removeUserFolder(folder);
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});

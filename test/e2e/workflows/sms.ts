/**
 * The SMS side of the node as a marketer wires it: Message > Send SMS (one text for everyone, or a
 * text customized per recipient from the item's fields), Delivery Report > Get by the message id a
 * send put out, Account > Get Balance. Shared by the end-to-end suite, the demo and the benchmark.
 */
import { type WorkflowNode, smsLeopard } from './build';

type Credential = { id: string; name: string };

/** The sandbox's registered sender ID (test/sandbox/seed.ts SMS_SENDER_IDS). */
export const SMS_SENDER_ID = 'SMS_Leopard';

export function sendSms(
	name: string,
	credential: Credential,
	message: string,
	options: {
		customized?: boolean;
		recipientsPerRequest?: number;
		maxParts?: number;
		/** Dry Run at this price per part: checked and counted, nothing sent. */
		dryRunPricePerPart?: number;
	} = {},
): WorkflowNode {
	const { customized, dryRunPricePerPart, ...smsOptions } = options;
	return smsLeopard(name, credential, {
		resource: 'message',
		operation: 'sendSms',
		source: SMS_SENDER_ID,
		recipient: '={{ $json.phone }}',
		textMode: customized ? 'customized' : 'same',
		message,
		smsOptions,
		...(dryRunPricePerPart === undefined ? {} : { dryRun: true, pricePerPart: dryRunPricePerPart }),
	});
}

/** The report of the message id each input item carries in `messageId`. */
export function deliveryReport(name: string, credential: Credential): WorkflowNode {
	return smsLeopard(name, credential, {
		resource: 'deliveryReport',
		operation: 'get',
		messageId: '={{ $json.messageId }}',
	});
}

/** Runs once whatever the number of input items. */
export function balance(name: string, credential: Credential): WorkflowNode {
	return smsLeopard(
		name,
		credential,
		{ resource: 'account', operation: 'getBalance' },
		{ executeOnce: true },
	);
}

/**
 * The send most suites need: Message > Send Template of the sandbox's Flow-button template (nothing
 * to fill in) from its primary sender to each item's `phone`, in a node named "Send". Shared by the
 * end-to-end suite and the queue-mode suite.
 */
import { SENDERS, TEMPLATES } from '../../sandbox';
import { type WorkflowNode, locator, smsLeopard } from './build';

type Credential = { id: string; name: string };

export function flowSend(
	credential: Credential,
	settings: Parameters<typeof smsLeopard>[3] = {},
	parameters: Record<string, unknown> = {},
): WorkflowNode {
	return smsLeopard(
		'Send',
		credential,
		{
			resource: 'message',
			operation: 'sendTemplate',
			senderNumber: locator(SENDERS.primary.phone_number_id),
			template: locator(TEMPLATES.flow.id),
			destination: '={{ $json.phone }}',
			variablesMode: 'template',
			...parameters,
		},
		settings,
	);
}

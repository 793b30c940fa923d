import {
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	NodeConnectionTypes,
} from 'n8n-workflow';
import { properties, subtitle } from './actions/resources';
import { route } from './actions/router';
import { listSearch, loadOptions, resourceMapping } from './methods';

/**
 * SMSLeopard: WhatsApp template messages, header media, contacts and groups. The description lives in
 * actions/ (one file per operation); the work is done by the embedded client in client/.
 */
export class SmsLeopard implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'SMSLeopard',
		name: 'smsLeopard',
		icon: { light: 'file:smsleopard.svg', dark: 'file:smsleopard.dark.svg' },
		group: ['output'],
		// 1.1: Define Below counts button positions from 1. 1.2: Include Input Fields on by default.
		// 1.3: a document's file name is a field of Values to Send, offered for document headers only.
		version: [1, 1.1, 1.2, 1.3],
		subtitle,
		description:
			'Send SMS and WhatsApp templates, upload header media, manage contacts and groups, and read delivery reports and the balance with SMSLeopard',
		// Used as it is by the editor's docs link; the codex link gets n8n's tracking query appended,
		// which would break an #anchor.
		documentationUrl: 'https://github.com/n8n-nodes-smsleopard/n8n-nodes-smsleopard#operations',
		defaults: { name: 'SMSLeopard' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'smsLeopardApi', required: true }],
		properties,
	};

	methods = { listSearch, loadOptions, resourceMapping };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this);
	}
}

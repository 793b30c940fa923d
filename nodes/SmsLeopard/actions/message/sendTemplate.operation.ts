/**
 * Message > Send Template: one approved template to one recipient per item. Variables are defined
 * field by field (the node builds `component_list`) or given as JSON; a header file can be a media
 * ID or a binary field, uploaded once per execution however many items use it.
 */
import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';
import {
	type ButtonValue,
	type MediaRecord,
	type PlaceholderValue,
	type PreparedTemplateMessage,
	type RecipientEntry,
	SmsLeopardValidationError,
	type TemplateDescription,
	type TemplateVariables,
	numberTextProblem,
	headerMediaCategory,
	pairRecipients,
	prepareTemplateMessage,
	withMediaId,
} from '../../client';
import { templateAsSent } from '../../client/whatsapp/template-as-sent';
import {
	fileNameInValuesToSend,
	headerMediaFields,
	noteIgnoredHeaderMedia,
	planHeaderMedia,
} from './header-media';
import { itemLabel } from '../../helpers/item-label';
import { unpairedAnswer } from './unpaired-answer';
import { duringAction } from '../../helpers/node-errors';
import { readNumber } from '../../helpers/number-option';
import { beforeTheSend } from '../../helpers/send-state';
import { echo } from '../../client/http/echo';
import {
	documentFileNameFromMappedValues,
	mediaIdFromMappedValues,
	variablesFromMappedValues,
} from './template-fields';
import {
	checkedAgainstFreshListing,
	sendDroppingListingOnRefusal,
	templateFor,
	templatesOf,
} from './template-lookup';
import { type MappedFields, refuseFieldsOfAnotherTemplate } from './fields-of-template';
import { senderNumberField, templateField } from '../common.fields';
import type { ExecutionState } from '../../helpers/execution-state';
import { showOnlyFor } from '../display-options';
import { WOULD_SEND, dryRunFields, estimatedCost } from '../dry-run';
import type { DryRun } from '../operation';
import { TEMPLATE_COST_CURRENCY_NOTE } from '../currency-notes';
import { noteOncePerRun } from '../../helpers/run-notes';
import { nodeVersion } from '../../helpers/node-version';

const show = { resource: ['message'], operation: ['sendTemplate'] };

/** Header or Body Variables (Define Below): {{n}} placeholder numbers with their values. */
function variablesCollection(part: 'Header' | 'Body', description: string): INodeProperties {
	const what = part.toLowerCase();
	return {
		displayName: `${part} Variables`,
		name: `${what}Variables`,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: `Add ${part} Variable`,
		default: {},
		description,
		options: [
			{
				displayName: 'Variable',
				name: 'variable',
				values: [
					{
						displayName: 'Placeholder Number',
						name: 'placeholder',
						type: 'number',
						default: 1,
						typeOptions: { minValue: 1 },
						description: `The n of {{n}} in the ${what}`,
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						description: 'The text that replaces the placeholder',
					},
				],
			},
		],
		displayOptions: { show: { variablesMode: ['define'] } },
	};
}

/** A resource mapper reloaded whenever the sender or the template changes. */
function fromChosenTemplate(method: string): INodeProperties['typeOptions'] {
	return {
		loadOptionsDependsOn: ['senderNumber.value', 'template.value'],
		resourceMapper: {
			resourceMapperMethod: method,
			mode: 'add',
			fieldWords: { singular: 'field', plural: 'fields' },
			addAllFields: true,
			multiKeyMatch: false,
			supportAutoMap: false,
			noFieldsError: 'This template has no variables to fill: it is sent as approved.',
		},
	};
}

function buttonsProperty(
	positionField: INodeProperties,
	versions: NonNullable<IDisplayOptions['show']>['@version'],
): INodeProperties {
	return {
		displayName: 'Buttons',
		name: 'buttons',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Button Value',
		default: {},
		description:
			'Values for buttons. Phone number and Flow buttons take none: they are sent as approved.',
		options: [
			{
				displayName: 'Button',
				name: 'button',
				values: [
					{
						displayName: 'Kind',
						name: 'kind',
						type: 'options',
						default: 'url',
						options: [
							{
								name: 'URL Placeholder',
								value: 'url',
								description:
									"The value replacing {{1}} in a URL button's link: only that part, not the whole URL",
							},
							{
								name: 'Quick Reply Payload',
								value: 'quickReply',
								description:
									'Returned in the webhook when the button is tapped; the button text stays as approved',
							},
							{
								name: 'Authentication Code',
								value: 'authCode',
								description: "The one-time code of an authentication template's copy-code button",
							},
							{
								name: 'Placeholder Number',
								value: 'placeholder',
								description: 'A button variable addressed by its placeholder number',
							},
						],
					},
					positionField,
					{
						displayName: 'Placeholder Number',
						name: 'placeholder',
						type: 'number',
						default: 1,
						typeOptions: { minValue: 1 },
						displayOptions: { show: { kind: ['placeholder'] } },
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
					},
				],
			},
		],
		displayOptions: { show: { variablesMode: ['define'], '@version': versions } },
	};
}

export const description: INodeProperties[] = showOnlyFor(show, [
	senderNumberField,
	{
		...templateField,
		// n8n's ResourceMapper.vue sets the mapped value to null whenever a parameter the fields
		// depend on changes (its watch on dependentParametersValues): a node cannot keep them.
		hint: 'Choosing another template clears the Values to Send: map them again',
	},
	{
		displayName: 'Recipient',
		name: 'destination',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. +254712345678',
		description:
			'Phone number of the recipient: international format with or without +, or local format',
	},
	{
		displayName: 'Variables',
		name: 'variablesMode',
		type: 'options',
		default: 'template',
		options: [
			{
				name: 'From the Template',
				value: 'template',
				description: 'Fill exactly the fields the chosen template needs',
			},
			{
				name: 'Define Below',
				value: 'define',
				description: 'Fill header, body and button variables field by field',
			},
			{
				name: 'Using JSON',
				value: 'json',
				description: 'Give the component_list JSON yourself',
			},
		],
	},
	{
		// n8n titles a resource mapper "Values to Send" on screen: the one name the user sees.
		displayName: 'Values to Send',
		name: 'templateFields',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: true,
		typeOptions: fromChosenTemplate('getTemplateFields'),
		displayOptions: { show: { variablesMode: ['template'] } },
	},
	variablesCollection('Header', 'Values for {{n}} placeholders of a text header'),
	variablesCollection(
		'Body',
		'Values for the {{1}}, {{2}}, ... placeholders of the template body. Every one is required.',
	),
	// Version 1 counted button positions from 0; 1.1 counts from 1 as the marketer does.
	buttonsProperty(
		{
			displayName: 'Button Position',
			name: 'index',
			type: 'number',
			default: 0,
			typeOptions: { minValue: 0 },
			description: 'Position of the button in the template, the first being 0',
			displayOptions: { show: { kind: ['url', 'quickReply'] } },
		},
		[1],
	),
	buttonsProperty(
		{
			displayName: 'Button Position',
			name: 'position',
			type: 'number',
			default: 1,
			typeOptions: { minValue: 1 },
			description: 'Position of the button in the template: 1 for the first, 2 for the second…',
			displayOptions: { show: { kind: ['url', 'quickReply'] } },
		},
		[{ _cnd: { gte: 1.1 } }],
	),
	// A default cannot come from the chosen template, so its skeleton is shown above the JSON to
	// copy.
	{
		displayName: 'Starting Point From the Template',
		name: 'templateSkeleton',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		typeOptions: fromChosenTemplate('getTemplateSkeleton'),
		displayOptions: { show: { variablesMode: ['json'] } },
	},
	{
		displayName: 'Components (JSON)',
		name: 'componentList',
		type: 'json',
		default:
			'{\n  "components": [\n    {\n      "component_type": "BODY",\n      "fields": [{ "name": "1", "value": "" }]\n    }\n  ]\n}',
		description:
			'The component_list of the send request: HEADER, BODY and BUTTONS components with {name, value} fields. Button names may be a placeholder number, or index-targeted names such as button:0 or quick_reply:1 (see https://github.com/n8n-nodes-smsleopard/n8n-nodes-smsleopard/blob/main/docs/send-template.md).',
		displayOptions: { show: { variablesMode: ['json'] } },
	},
	...headerMediaFields,
	...dryRunFields('message'),
]);

export const recipientParameter = 'destination';

export const dryRunUnit = 'message' as const;

type Entries<T> = { variable?: T[]; button?: T[] };

/**
 * Whole numbers of the entries (placeholder numbers, button positions) as the editor bounds them.
 * An expression giving "abc", 0, 1.5 or NaN is collected as an issue naming the entry, never
 * turned into a neighbouring button by arithmetic on it; digits as text read as their number.
 */
class EntryNumbers {
	readonly issues: Array<{ field: string; message: string }> = [];

	read(value: unknown, fallback: number, min: number, field: string): number {
		const reading = readNumber(value, fallback, { min, whole: true });
		if (reading.ok) return reading.value;
		this.issues.push({ field, message: reading.problem });
		return fallback;
	}

	/**
	 * An entry's value: a number from an expression (an order number) goes out as its text, as in
	 * the other modes, while that text is exact; anything else is left for the checks to name.
	 */
	text(value: unknown, field: string): string {
		if (typeof value !== 'number') return value as string;
		const problem = numberTextProblem(value);
		if (problem) this.issues.push({ field, message: problem });
		return String(value);
	}
}

function placeholderValues(
	raw: Entries<PlaceholderValue>,
	numbers: EntryNumbers,
	where: 'header' | 'body',
): PlaceholderValue[] {
	return (raw.variable ?? []).map((entry, position) => ({
		placeholder: numbers.read(
			entry.placeholder,
			1,
			1,
			`variables.${where}[${position}].placeholder`,
		),
		value: numbers.text(entry.value, `variables.${where}[${position}].value`),
	}));
}

interface ButtonEntry {
	kind: 'url' | 'quickReply' | 'authCode' | 'placeholder';
	/** Version 1: counted from 0. */
	index?: number;
	/** Version 1.1 on: counted from 1. */
	position?: number;
	placeholder?: number;
	value: string;
}

/** The API's 0-based button index (`quick_reply:0`), whichever way the node version counts. */
function apiIndex(
	entry: ButtonEntry,
	oneBased: boolean,
	numbers: EntryNumbers,
	field: string,
): number {
	return oneBased
		? numbers.read(entry.position, 1, 1, `${field}.position`) - 1
		: numbers.read(entry.index, 0, 0, `${field}.index`);
}

function buttonValues(
	raw: Entries<ButtonEntry>,
	oneBased: boolean,
	numbers: EntryNumbers,
): ButtonValue[] {
	return (raw.button ?? []).map((given, position) => {
		const field = `variables.buttons[${position}]`;
		const entry = { ...given, value: numbers.text(given.value, `${field}.value`) };
		switch (entry.kind) {
			case 'quickReply':
				return {
					kind: 'quickReply',
					index: apiIndex(entry, oneBased, numbers, field),
					value: entry.value,
				};
			case 'authCode':
				// docs/api.md "Template send rules", rule 11: the code goes in BUTTONS under the
				// placeholder number of the copy-code button.
				return { kind: 'placeholder', placeholder: 1, value: entry.value };
			case 'placeholder':
				return {
					kind: 'placeholder',
					placeholder: numbers.read(entry.placeholder, 1, 1, `${field}.placeholder`),
					value: entry.value,
				};
			default:
				return {
					kind: 'url',
					index: apiIndex(entry, oneBased, numbers, field),
					value: entry.value,
				};
		}
	});
}

export function readDefinedVariables(
	context: IExecuteFunctions,
	itemIndex: number,
): TemplateVariables {
	const numbers = new EntryNumbers();
	const variables = {
		header: placeholderValues(
			context.getNodeParameter('headerVariables', itemIndex, {}) as Entries<PlaceholderValue>,
			numbers,
			'header',
		),
		body: placeholderValues(
			context.getNodeParameter('bodyVariables', itemIndex, {}) as Entries<PlaceholderValue>,
			numbers,
			'body',
		),
		buttons: buttonValues(
			context.getNodeParameter('buttons', itemIndex, {}) as Entries<ButtonEntry>,
			nodeVersion(context) >= 1.1,
			numbers,
		),
	};
	if (numbers.issues.length > 0) throw new SmsLeopardValidationError(numbers.issues);
	return variables;
}

function readVariables(
	context: IExecuteFunctions,
	itemIndex: number,
	mode: string,
): {
	variables?: TemplateVariables;
	componentList?: unknown;
	mappedMediaId?: string;
	mappedFileName?: string;
} {
	if (mode === 'json')
		return { componentList: context.getNodeParameter('componentList', itemIndex, '') };
	if (mode === 'define') return { variables: readDefinedVariables(context, itemIndex) };
	// Read whole: asked for `templateFields.value`, n8n-core refuses an empty value itself in its
	// own words and numbering ("Invalid input for 'body_1_t…' [item 0]"); the send's checks name
	// the field as the user sees it and the item as the editor counts it.
	const mapped = ((context.getNodeParameter('templateFields', itemIndex, {}) as { value?: unknown })
		.value ?? {}) as Record<string, unknown>;
	return {
		variables: variablesFromMappedValues(mapped),
		mappedMediaId: mediaIdFromMappedValues(mapped),
		mappedFileName: documentFileNameFromMappedValues(mapped),
	};
}

/** Problems with the file name named after the field the user typed it in (`documentFileName`). */
function namedAs(field: string, error: unknown): unknown {
	if (field === 'fileName' || !(error instanceof SmsLeopardValidationError)) return error;
	return new SmsLeopardValidationError(
		error.issues.map((issue) => (issue.field === 'fileName' ? { ...issue, field } : issue)),
	);
}

/** One item, read and checked; its header file, if any, not uploaded yet. */
export interface CheckedItem {
	phoneNumberId: string;
	templateId: string;
	destination: string;
	/** How a failure is reported: what the user asked for, not "List sender numbers failed". */
	action: string;
	message: PreparedTemplateMessage;
	template?: TemplateDescription;
	/** Uploads the item's header file (once per execution for the same file). */
	upload?: () => Promise<MediaRecord>;
}

/** Reads and checks one item, sending nothing: the router checks every item before any send. */
export async function prepare(
	this: IExecuteFunctions,
	itemIndex: number,
	state: ExecutionState,
): Promise<CheckedItem> {
	const phoneNumberId = String(
		this.getNodeParameter('senderNumber', itemIndex, '', { extractValue: true }),
	);
	const templateId = String(
		this.getNodeParameter('template', itemIndex, '', { extractValue: true }),
	);
	const destination = this.getNodeParameter('destination', itemIndex, '') as string;
	const mode = this.getNodeParameter('variablesMode', itemIndex, 'template') as string;
	const action = `Sending template '${echo(templateId)}' to ${echo(destination)}`;
	const chosen = { phoneNumberId, templateId, destination, mode };
	const checked = await checkedAgainstFreshListing(
		state,
		phoneNumberId,
		async () => await checkItem.call(this, itemIndex, state, chosen),
	).catch((error: unknown) => {
		// Listings come before the send: the message did not go out.
		throw beforeTheSend(duringAction(error, action));
	});
	return { phoneNumberId, templateId, destination, action, ...checked };
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	state: ExecutionState,
	item: CheckedItem,
): Promise<IDataObject> {
	const { phoneNumberId, templateId, destination, template } = item;
	const uploaded = item.upload
		? await uploadHeaderFile(item).catch((error: unknown) => {
				// The header upload comes before the send: the message did not go out.
				throw beforeTheSend(duringAction(error, item.action));
			})
		: undefined;
	const message = uploaded?.message ?? item.message;
	const mediaId = message.body.media_id;
	const result = await sendDroppingListingOnRefusal(state, phoneNumberId, message);
	const entry = ownEntry(result.recipients, destination, itemIndex);
	const includeRaw = this.getNodeParameter('requestOptions.includeRawAnswer', itemIndex, false);
	if (typeof entry.cost === 'number') noteOncePerRun(this, state, TEMPLATE_COST_CURRENCY_NOTE);
	// One flat row per item for the table view, with the same names as Send SMS.
	return {
		outcome: 'sent',
		recipient: destination,
		number: entry.number ?? destination,
		messageId: entry.id,
		status: entry.status,
		...whatWentOut(item.template, message, uploaded?.fileName),
		// The send answer gives the cost in the account's currency without naming it: said in a
		// hint, never a currency field that would read as "none".
		cost: entry.cost ?? null,
		templateName: template?.name ?? templateNameShown(this, itemIndex) ?? null,
		templateId,
		phoneNumberId,
		...(mediaId ? { mediaId } : {}),
		// Said only when it happened: the account has no template listing, so the service alone
		// checked.
		...(template ? {} : { templateChecked: false }),
		...(entry.notes ? { notes: entry.notes } : {}),
		...(includeRaw ? { rawAnswer: result.answer as IDataObject } : {}),
	};
}

/** Dry Run: what the checked item would send, as the request body has it; nothing is uploaded. */
export function preview(
	this: IExecuteFunctions,
	itemIndex: number,
	item: CheckedItem,
	dryRun: DryRun,
): IDataObject {
	const { body } = item.message;
	return {
		dryRun: true,
		outcome: WOULD_SEND,
		recipient: item.destination,
		number: body.destination,
		...whatWentOut(item.template, item.message),
		templateName: item.template?.name ?? templateNameShown(this, itemIndex) ?? null,
		templateId: item.templateId,
		phoneNumberId: item.phoneNumberId,
		...(body.media_id ? { mediaId: body.media_id } : {}),
		...(item.upload ? { headerUpload: 'the file of the input item, uploaded when sent' } : {}),
		// Without the template's texts, the values as they would be sent are all there is to show.
		...(item.template
			? {}
			: { templateChecked: false, componentList: body.component_list as unknown as IDataObject }),
		...estimatedCost(dryRun, 1),
	};
}

/**
 * The filled texts the recipient gets (body, header text or file name, buttons), for the output:
 * read from the body sent, so a send and its dry run show the same.
 */
function whatWentOut(
	template: TemplateDescription | undefined,
	message: PreparedTemplateMessage,
	uploadedFileName?: string,
): IDataObject {
	const sent = templateAsSent(template, message.body, uploadedFileName);
	return sent ? ({ ...sent } as unknown as IDataObject) : {};
}

/** The checked message completed with the media_id its header file got at upload. */
async function uploadHeaderFile(
	item: CheckedItem,
): Promise<{ message: PreparedTemplateMessage; fileName?: string }> {
	const uploaded = await (item.upload as () => Promise<MediaRecord>)();
	return {
		message: withMediaId(item.message, uploaded.media_id),
		fileName: uploaded.file_name ?? undefined,
	};
}

/**
 * The answer's entry for this item's destination, with its message id; otherwise the item is maybe
 * sent, never paired with an id that may be someone else's.
 */
function ownEntry(
	entries: RecipientEntry[],
	destination: string,
	itemIndex: number,
): RecipientEntry & { id: string } {
	const [entry] = pairRecipients([destination], entries);
	if (entry?.id !== undefined) return { ...entry, id: entry.id };
	throw unpairedAnswer(
		`the template message of ${itemLabel(itemIndex)}`,
		echo(destination),
		entry,
		'the SMSLeopard dashboard',
	);
}

/** The name the editor's template picker shows (kept with the chosen id), when it has one. */
function templateNameShown(context: IExecuteFunctions, itemIndex: number): string | undefined {
	const picked = context.getNodeParameter('template', itemIndex, {}) as {
		cachedResultName?: unknown;
	};
	return typeof picked === 'object' && typeof picked?.cachedResultName === 'string'
		? picked.cachedResultName
		: undefined;
}

async function checkItem(
	this: IExecuteFunctions,
	itemIndex: number,
	state: ExecutionState,
	chosen: { phoneNumberId: string; templateId: string; destination: string; mode: string },
): Promise<Pick<CheckedItem, 'message' | 'template' | 'upload'>> {
	const { phoneNumberId, templateId, destination, mode } = chosen;
	const { variables, componentList, mappedMediaId, mappedFileName } = readVariables(
		this,
		itemIndex,
		mode,
	);
	const template = await templateFor(state, phoneNumberId, templateId);
	if (template && mode === 'template') {
		const mapped = this.getNodeParameter('templateFields', itemIndex, {}) as MappedFields;
		refuseFieldsOfAnotherTemplate(mapped, template, await templatesOf(state, phoneNumberId));
	}
	// Header Media left over from a media template must not fail a template without a media header.
	const withoutMediaHeader = template !== undefined && !headerMediaCategory(template);
	if (withoutMediaHeader) noteIgnoredHeaderMedia(this, itemIndex, state, template);
	const planned = withoutMediaHeader
		? {}
		: await planHeaderMedia(this, itemIndex, state, phoneNumberId);
	// Header Media set below wins; otherwise the media ID typed with the template's fields.
	const media =
		planned.mediaId || planned.upload || !mappedMediaId || withoutMediaHeader
			? planned
			: { ...planned, mediaId: mappedMediaId };
	// From 1.3 (From the Template) the name is typed in Values to Send: without a header file the
	// item is refused for the missing file (Header Media), not for the name.
	const inValues = fileNameInValuesToSend(this, mode);
	const withFile = media.mediaId !== undefined || media.upload !== undefined;
	const message = await Promise.resolve()
		.then(() =>
			prepareTemplateMessage(
				{
					phoneNumberId,
					templateId,
					destination,
					variables,
					componentList,
					mediaId: media.mediaId,
					fileName: inValues ? (withFile ? mappedFileName : undefined) : media.fileName,
				},
				{ template, mediaCategory: media.category, mediaToUpload: media.upload !== undefined },
			),
		)
		.catch((error: unknown) => {
			throw namedAs(inValues ? 'documentFileName' : 'fileName', error);
		});
	// The header file is uploaded only when the item is sent, after every item passed its checks.
	return { message, template, upload: media.upload };
}

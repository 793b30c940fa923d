/**
 * SmsLeopardClient: one typed method per endpoint of SMSLeopard's API (docs/api.md).
 * Input is checked before any request; answers are checked before
 * they are returned. It knows nothing of n8n: the network is reached only through `transport`.
 */
import { settle } from './http/settle';
import { z } from 'zod';
import { ApiCaller } from './http/api-caller';
import type { AccountPacers, PacerLease } from './http/account-pacers';
import { Pacer } from './http/pacing';
import { DEFAULT_CHANNEL, DEFAULT_CHAT_URL, DEFAULT_CONTACTS_URL } from './http/hosts';
import {
	type Contact,
	type CreateContactBody,
	type CreateContactRequest,
	type DeleteContactResult,
	buildCreateContactBody,
	checkContactId,
	createContactCall,
	deleteContactCall,
} from './contacts/contacts';
import {
	type AllGroupsRequest,
	type Group,
	type GroupsPage,
	type GroupsPageRequest,
	groupsPageCall,
	iterateGroups,
} from './contacts/groups';
import {
	type MediaRecord,
	type PreparedUpload,
	type UploadMediaRequest,
	prepareUpload,
	uploadMediaCall,
} from './whatsapp/media';
import {
	type SendTemplateRequest,
	type SendTemplateResult,
	sendTemplateCall,
} from './whatsapp/messages';
import { type PreparedTemplateMessage, prepareTemplateMessage } from './whatsapp/template-message';
import {
	type Balance,
	type DeliveryReport,
	type PreparedSms,
	type SendSmsAnswer,
	type SendSmsRequest,
	balanceCall,
	checkMessageId,
	deliveryReportCall,
	prepareSendSms,
	sendSmsCall,
} from './sms/sms';
import { type SmsPlan, type SmsSend, planSms } from './sms/sms-plan';
import { DEFAULT_RETRY, type RetryOptions, type Sleep } from './http/retry';
import {
	type SenderNumber,
	findSenderIn,
	senderNumbersCall,
	senderRecordId,
} from './whatsapp/senders';
import {
	type Template,
	type TemplateDescription,
	describeTemplate,
	templatesCall,
} from './whatsapp/templates';
import {
	SmsLeopardBadRequestError,
	SmsLeopardNotFoundError,
	SmsLeopardResponseError,
	SmsLeopardValidationError,
} from './http/errors';
import { stampSendState } from './http/send-state';
import type { Transport } from './http/transport';
import { recordId } from './values/identifiers';
import { validateInput } from './http/validation';
import { MAX_TIMEOUT_MS, MIN_REQUESTS_PER_SECOND, boundedSleep } from './http/wait-limits';

export { DEFAULT_CHANNEL, DEFAULT_CHAT_URL, DEFAULT_CONTACTS_URL } from './http/hosts';

export interface SmsLeopardClientOptions {
	transport: Transport;
	/** Waits between retries; inside n8n, n8n-workflow's `sleep`. */
	sleep: Sleep;
	/** The pacer's clock (default Date.now); inside n8n, precise-clock.ts's `preciseNow`. */
	now?: () => number;
	/**
	 * The pacer's wait of under a millisecond (pacing.ts); inside n8n, precise-clock.ts's
	 * `waitInPlace`.
	 */
	waitBriefly?: (ms: number) => void;
	/** `{chat_url}`: messaging and media upload. */
	chatUrl?: string;
	/** `{base_url}`: contacts and groups. */
	contactsUrl?: string;
	/** The channel path segment of chat endpoints. */
	channel?: string;
	retry?: Partial<RetryOptions>;
	timeoutMs?: number;
	/** Never send faster than this (for accounts with a known limit). */
	requestsPerSecond?: number;
	/**
	 * Executions sending with the account at once, this one included: this client sends at
	 * requestsPerSecond / sharedBy; clients sharing a pacer add their shares up to requestsPerSecond.
	 */
	sharedBy?: number;
	/**
	 * How many calls the caller runs at once (the node's "Items in Parallel"); spreads their starts.
	 */
	parallelCalls?: number;
	/**
	 * Pace with the other clients of the same account through `pacers` (account-pacers.ts), under
	 * `key`; call `close()` when done. Without it the client paces on its own.
	 */
	sharedPacing?: { pacers: AccountPacers; key: string };
}

const baseUrl = z
	.string()
	.trim()
	.url('must be a URL such as https://api.smsleopard.com')
	.refine((url) => /^https?:\/\//i.test(url), { message: 'must start with https://' })
	.refine((url) => !/[?#]/.test(url), { message: 'must not hold a query or fragment' });

const clientOptions = z.object({
	chatUrl: baseUrl.default(DEFAULT_CHAT_URL),
	contactsUrl: baseUrl.default(DEFAULT_CONTACTS_URL),
	channel: z
		.string()
		.trim()
		.regex(/^[A-Za-z0-9_-]+$/, 'must be one path segment such as "whatsapp"')
		.default(DEFAULT_CHANNEL),
	timeoutMs: z
		.number()
		.int()
		.positive()
		.max(MAX_TIMEOUT_MS, `must be ${MAX_TIMEOUT_MS / 1000} seconds (a day) or less`)
		.optional(),
	requestsPerSecond: z
		.number()
		.nonnegative('must be 0 (no limit) or more')
		.refine((rate) => rate === 0 || rate >= MIN_REQUESTS_PER_SECOND, {
			message: `must be 0 (no limit) or at least ${MIN_REQUESTS_PER_SECOND} (one request every ${1 / MIN_REQUESTS_PER_SECOND} seconds)`,
		})
		.optional(),
	sharedBy: z.number().int('must be a whole number').positive('must be 1 or more').optional(),
	parallelCalls: z.number().int('must be a whole number').positive('must be 1 or more').optional(),
});

export class SmsLeopardClient {
	private readonly caller: ApiCaller;
	private readonly pacerLease: PacerLease | undefined;
	readonly channel: string;

	constructor(options: SmsLeopardClientOptions) {
		const settings = validateInput(clientOptions, {
			chatUrl: options.chatUrl,
			contactsUrl: options.contactsUrl,
			channel: options.channel,
			timeoutMs: options.timeoutMs,
			requestsPerSecond: options.requestsPerSecond,
			sharedBy: options.sharedBy,
			parallelCalls: options.parallelCalls,
		});
		this.channel = settings.channel;
		const sleep = boundedSleep(options.sleep);
		const { sharedPacing } = options;
		// This client's share of the account's limit (the whole of it unless others share it).
		const share = (settings.requestsPerSecond ?? 0) / (settings.sharedBy ?? 1);
		const pacerFor = (parallelCalls: number) =>
			new Pacer(sleep, {
				requestsPerSecond: share,
				parallelCalls,
				now: options.now,
				waitBriefly: options.waitBriefly,
			});
		// Clients of one account share a pacer: with Max Requests per Second set, it keeps what their
		// limits allow together (account-pacers.ts); without, they find the account's limit together.
		const limited = (settings.requestsPerSecond ?? 0) > 0;
		this.pacerLease = sharedPacing?.pacers.join(
			`${sharedPacing.key}\u0000${limited ? 'limited' : 'unlimited'}`,
			settings.parallelCalls ?? 1,
			pacerFor,
			{ share, limit: settings.requestsPerSecond ?? 0 },
		);
		this.caller = new ApiCaller({
			transport: options.transport,
			// Every wait of the pacer and the retries, safe for any length (wait-limits.ts).
			sleep,
			chatUrl: settings.chatUrl,
			contactsUrl: settings.contactsUrl,
			timeoutMs: settings.timeoutMs,
			retry: { ...DEFAULT_RETRY, ...options.retry },
			pacer: this.pacerLease?.pacer ?? pacerFor(settings.parallelCalls ?? 1),
		});
	}

	/**
	 * Whether another client of the account in this process shares this one's pacer now: a
	 * campaign worker's other batch, which may be sending while this one prepares.
	 */
	othersSendingBeside(): boolean {
		return this.pacerLease?.othersUsingIt() ?? false;
	}

	/** Done with this client: a shared pacer is left for the account's other clients. */
	close(): void {
		this.pacerLease?.leave();
	}

	/** Checks and sends an approved template to one recipient (prepareTemplateMessage, then send). */
	async sendTemplate(request: SendTemplateRequest): Promise<SendTemplateResult> {
		return await this.sendPreparedTemplate(prepareTemplateMessage(request));
	}

	/** Sends exactly the body prepareTemplateMessage built and checked. */
	async sendPreparedTemplate(prepared: PreparedTemplateMessage): Promise<SendTemplateResult> {
		if (prepared.awaitsMediaId) {
			throw new SmsLeopardValidationError([
				{ field: 'mediaId', message: 'is missing: upload the header file, then add its media_id' },
			]);
		}
		return await this.caller.call(sendTemplateCall(this.channel, prepared.body));
	}

	/** Uploads a document, image or video for a template header; returns its `media_id`. */
	async uploadMedia(request: UploadMediaRequest): Promise<MediaRecord> {
		return await this.uploadPreparedMedia(prepareUpload(request));
	}

	/** Uploads exactly what prepareUpload checked and prepared. */
	async uploadPreparedMedia(prepared: PreparedUpload): Promise<MediaRecord> {
		return await this.caller.call(uploadMediaCall(this.channel, prepared));
	}

	/**
	 * Sends one SMS request (one text for all, or customized per recipient). Checked and counted
	 * first: nothing is sent when a recipient is invalid or a text exceeds `maxParts`.
	 */
	async sendSms(request: SendSmsRequest): Promise<SendSmsAnswer> {
		return await this.sendPreparedSms(prepareSendSms(request));
	}

	/** Plans many one-recipient sends into requests (sms-plan.ts); nothing is sent. */
	planSms(sends: SmsSend[]): SmsPlan {
		return planSms(sends);
	}

	/**
	 * Sends exactly one prepared or planned request. Never repeated after a lost answer or a 5xx,
	 * since the service may already have texted everyone.
	 */
	async sendPreparedSms(prepared: PreparedSms): Promise<SendSmsAnswer> {
		const call = sendSmsCall(prepared.body);
		const answer = await this.caller.call(call);
		// `success: false` without a single message id is the service saying it sent nothing. With
		// ids, some recipients may have gone out: the caller pairs what it can and reports the rest.
		if (!answer.success && answer.recipients.every((entry) => entry.id === undefined)) {
			throw stampSendState(
				new SmsLeopardBadRequestError({
					status: 200,
					code: 'not_sent',
					apiMessage: answer.message ?? 'the service answered success: false',
					body: answer,
					operation: call.operation,
				}),
				true,
				{ kind: 'refused' },
			);
		}
		return answer;
	}

	/** The delivery state of one sent SMS, by the message id the send answered. */
	async getDeliveryReport(messageId: string): Promise<DeliveryReport> {
		return await this.caller.call(deliveryReportCall(checkMessageId(messageId)));
	}

	/** The account's SMS balance, in its currency. */
	async getBalance(): Promise<Balance> {
		return await this.caller.call(balanceCall);
	}

	async createContact(request: CreateContactRequest): Promise<Contact> {
		return await this.createPreparedContact(buildCreateContactBody(request));
	}

	/** Creates the contact with exactly the body buildCreateContactBody checked and built. */
	async createPreparedContact(body: CreateContactBody): Promise<Contact> {
		return await this.caller.call(createContactCall(body));
	}

	/**
	 * Deletes a contact for good: it leaves every group and its custom attributes are gone. With
	 * `ignoreNotFound`, a contact that does not exist (already deleted) is reported, not thrown.
	 */
	async deleteContact(
		contactId: number | string,
		options: { ignoreNotFound?: boolean } = {},
	): Promise<DeleteContactResult & { contactId: string; deleted: boolean; notFound?: boolean }> {
		// The id as checked and sent: digits as text, so nothing beyond 2^53 loses a digit.
		const checkedId = checkContactId(contactId);
		const call = deleteContactCall(checkedId);
		const outcome = await settle(async () => await this.caller.call(call));
		if (outcome.ok) return { ...outcome.value, contactId: checkedId, deleted: true };
		const { error } = outcome;
		if (!(options.ignoreNotFound && error instanceof SmsLeopardNotFoundError)) throw error;
		return { message: error.apiMessage, contactId: checkedId, deleted: false, notFound: true };
	}

	async getGroupsPage(request: GroupsPageRequest = {}): Promise<GroupsPage> {
		return await this.caller.call(groupsPageCall(request));
	}

	/** Every group, page by page, lazily. */
	iterateGroups(request: AllGroupsRequest = {}): AsyncGenerator<Group, void, undefined> {
		return iterateGroups(this.caller, request);
	}

	async getAllGroups(request: AllGroupsRequest = {}): Promise<Group[]> {
		const groups: Group[] = [];
		for await (const group of this.iterateGroups(request)) groups.push(group);
		return groups;
	}

	async listSenderNumbers(): Promise<SenderNumber[]> {
		return await this.caller.call(senderNumbersCall);
	}

	/** The sender number with this `phone_number_id`; a record `id` given by mistake is named. */
	async findSenderNumber(phoneNumberId: string): Promise<SenderNumber> {
		return findSenderIn(await this.listSenderNumbers(), phoneNumberId);
	}

	/**
	 * The described templates of a sender number, by `phone_number_id`, for checking sends. The
	 * listing is SMSLeopard's own (docs/api.md "Template listing"): when the account has no such
	 * endpoint (404) or answers it in another shape, the answer is undefined and sends go unchecked.
	 * A failure that may pass (5xx, lost connection, rate limit: already retried as reads are) is
	 * thrown, so the item fails with nothing sent rather than going out unchecked; so are a wrong
	 * sender and wrong credentials.
	 */
	async templateCatalog(
		phoneNumberId: string,
	): Promise<Map<string, TemplateDescription> | undefined> {
		const outcome = await settle(async () => {
			const sender = await this.findSenderNumber(phoneNumberId);
			return await this.listTemplates(senderRecordId(sender));
		});
		if (outcome.ok) {
			// A template without a usable id cannot be sent, so it cannot be checked against either.
			return new Map(
				outcome.value.flatMap((template) =>
					template.id ? [[template.id, describeTemplate(template)] as const] : [],
				),
			);
		}
		if (!listingUnavailable(outcome.error)) throw outcome.error;
		return undefined;
	}

	/**
	 * Checks, before an upload sends a byte, that `phoneNumberId` is one of the account's senders (a
	 * record `id` given by mistake is named). Undefined when the account has no sender listing: the
	 * service then has the last word. Other listing failures are thrown, as for template checks.
	 */
	async checkSenderNumber(phoneNumberId: string): Promise<SenderNumber | undefined> {
		const outcome = await settle(async () => await this.listSenderNumbers());
		if (outcome.ok) return findSenderIn(outcome.value, phoneNumberId);
		if (!listingUnavailable(outcome.error)) throw outcome.error;
		return undefined;
	}

	/** Templates of a sender number, by the sender's record `id` (not its phone_number_id). */
	async listTemplates(senderId: number | string): Promise<Template[]> {
		return await this.caller.call(
			templatesCall(validateInput(recordId('a sender record id'), senderId, 'senderId')),
		);
	}
}

/**
 * A listing (docs/api.md "Sender numbers", "Template listing") that this account does not offer
 * (404) or answers oddly.
 */
function listingUnavailable(error: unknown): boolean {
	return error instanceof SmsLeopardNotFoundError || error instanceof SmsLeopardResponseError;
}

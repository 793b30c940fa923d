// Everything a handler may touch, gathered in one object that lives as long as the sandbox.
import { Callbacks, REPORT_SECRET_WAYS, REPORT_SHAPES } from './callbacks';
import { Faults } from './faults';
import { LIMITER_MODELS, RETRY_AFTER_STYLES } from './limiters';
import { SANDBOX_API_KEY, SANDBOX_API_SECRET, FIRST_CREATED_CONTACT_ID } from './seed';
import { createState, resetState } from './state';
import type {
	RecordedRequest,
	ResolvedOptions,
	SandboxHooks,
	SandboxOptions,
	SandboxState,
} from './types';

export interface SandboxContext {
	/** Live knobs: handlers read them per request, setOptions mutates this very object. */
	options: ResolvedOptions;
	/** What startSandbox was given, so reset() can restore it. */
	startOptions: ResolvedOptions;
	state: SandboxState;
	requests: RecordedRequest[];
	faults: Faults;
	credentials: { apiKey: string; apiSecret: string };
	/** Ids that restart with the seed. */
	counters: { contact: number; mediaRecord: number };
	/** Ids that never repeat in a sandbox's life, so an id from before reset() cannot hit new data. */
	sequences: { message: number; mediaId: number };
	hooks: SandboxHooks;
	/** Delivery reports and WhatsApp events posted back, with their timers. */
	callbacks: Callbacks;
}

export const DEFAULT_OPTIONS: ResolvedOptions = {
	chatPort: 0,
	contactsPort: 0,
	channel: 'whatsapp',
	latencyMs: 0,
	rateLimitPerSecond: undefined,
	rateLimitModel: 'sliding',
	rateLimitBurst: 20,
	rateLimitRetryAfter: 'seconds',
	rateLimitChange: null,
	rateLimitQuotaWindowMs: 60_000,
	failureRate: 0,
	seed: 42,
	groupCount: 25,
	defaultPerPage: 10,
	maxPerPage: 100,
	ignorePageParam: false,
	runawayPagination: 'off',
	contactCreateMode: 'upsert',
	resetRate: 0,
	resetMode: 'beforeHandling',
	slowRate: 0,
	slowMs: 1000,
	malformedJsonRate: 0,
	wrongContentTypeRate: 0,
	burst429: 0,
	burst429RetryAfter: '1',
	templateListingFailures: 0,
	noTemplateListing: false,
	noSenderListing: false,
	smsDeliveryMs: 2000,
	echoRequestHeaders: false,
	echoRequestBody: false,
	sendAnswers: 'complete',
	reportShape: 'flat',
	reportSecretIn: 'body',
};

const FRACTIONS = [
	'failureRate',
	'resetRate',
	'slowRate',
	'malformedJsonRate',
	'wrongContentTypeRate',
] as const;

function isNonNegativeInteger(value: number): boolean {
	return Number.isInteger(value) && value >= 0;
}

/** Applies a partial set of options, refusing nonsense loudly: a silently ignored knob hides bugs. */
export function mergeOptions(
	base: ResolvedOptions,
	partial: Partial<SandboxOptions>,
): ResolvedOptions {
	const merged: ResolvedOptions = { ...base };
	for (const [key, value] of Object.entries(partial) as [keyof SandboxOptions, unknown][]) {
		// undefined unsets a knob that is off by default (a limit, a webhook URL); others keep theirs.
		if (value === undefined && DEFAULT_OPTIONS[key as keyof ResolvedOptions] !== undefined)
			continue;
		(merged as unknown as Record<string, unknown>)[key] = value;
	}
	const problems: string[] = [];
	if (!isNonNegativeInteger(merged.chatPort)) problems.push('chatPort');
	if (!isNonNegativeInteger(merged.contactsPort)) problems.push('contactsPort');
	if (!/^[a-z0-9_-]+$/i.test(merged.channel)) problems.push('channel');
	if (!(merged.latencyMs >= 0)) problems.push('latencyMs');
	if (merged.rateLimitPerSecond !== undefined && !(merged.rateLimitPerSecond > 0)) {
		problems.push('rateLimitPerSecond');
	}
	if (!LIMITER_MODELS.includes(merged.rateLimitModel)) problems.push('rateLimitModel');
	if (!(Number.isInteger(merged.rateLimitBurst) && merged.rateLimitBurst >= 1)) {
		problems.push('rateLimitBurst');
	}
	if (!RETRY_AFTER_STYLES.includes(merged.rateLimitRetryAfter))
		problems.push('rateLimitRetryAfter');
	const change = merged.rateLimitChange;
	if (change !== null && !(change.afterMs >= 0 && change.perSecond > 0)) {
		problems.push('rateLimitChange');
	}
	if (!(Number.isInteger(merged.rateLimitQuotaWindowMs) && merged.rateLimitQuotaWindowMs >= 1000)) {
		problems.push('rateLimitQuotaWindowMs');
	}
	for (const key of FRACTIONS) {
		if (!(merged[key] >= 0 && merged[key] <= 1)) problems.push(key);
	}
	if (!['beforeHandling', 'afterHandling', 'mixed'].includes(merged.resetMode)) {
		problems.push('resetMode');
	}
	if (!(merged.slowMs >= 0 && Number.isFinite(merged.slowMs))) problems.push('slowMs');
	if (!isNonNegativeInteger(merged.burst429)) problems.push('burst429');
	if (!isNonNegativeInteger(merged.templateListingFailures)) {
		problems.push('templateListingFailures');
	}
	if (merged.burst429RetryAfter !== null && typeof merged.burst429RetryAfter !== 'string') {
		problems.push('burst429RetryAfter');
	}
	if (!isNonNegativeInteger(merged.smsDeliveryMs)) problems.push('smsDeliveryMs');
	if (typeof merged.echoRequestHeaders !== 'boolean') problems.push('echoRequestHeaders');
	if (typeof merged.echoRequestBody !== 'boolean') problems.push('echoRequestBody');
	if (!REPORT_SHAPES.includes(merged.reportShape)) problems.push('reportShape');
	if (!REPORT_SECRET_WAYS.includes(merged.reportSecretIn)) problems.push('reportSecretIn');
	if (merged.whatsappWebhookUrl !== undefined && !/^https?:\/\//.test(merged.whatsappWebhookUrl)) {
		problems.push('whatsappWebhookUrl');
	}
	if (!['complete', 'dropLast', 'noNumbers'].includes(merged.sendAnswers)) {
		problems.push('sendAnswers');
	}
	if (!Number.isInteger(merged.seed)) problems.push('seed');
	if (!isNonNegativeInteger(merged.groupCount)) problems.push('groupCount');
	if (!(Number.isInteger(merged.maxPerPage) && merged.maxPerPage >= 1)) problems.push('maxPerPage');
	if (!(Number.isInteger(merged.defaultPerPage) && merged.defaultPerPage >= 1)) {
		problems.push('defaultPerPage');
	}
	if (!['off', 'repeat', 'fresh'].includes(merged.runawayPagination)) {
		problems.push('runawayPagination');
	}
	if (!['upsert', 'duplicate'].includes(merged.contactCreateMode)) {
		problems.push('contactCreateMode');
	}
	if (problems.length > 0) throw new Error(`Invalid sandbox option(s): ${problems.join(', ')}`);
	return merged;
}

export function createContext(options: SandboxOptions, hooks: SandboxHooks): SandboxContext {
	const resolved = mergeOptions(DEFAULT_OPTIONS, options);
	const live = { ...resolved };
	return {
		options: live,
		startOptions: resolved,
		state: createState(resolved.groupCount),
		requests: [],
		faults: new Faults(live),
		credentials: { apiKey: SANDBOX_API_KEY, apiSecret: SANDBOX_API_SECRET },
		counters: { contact: FIRST_CREATED_CONTACT_ID, mediaRecord: 1 },
		sequences: { message: 0, mediaId: 0 },
		hooks,
		callbacks: new Callbacks(),
	};
}

/** Back to the seed and the start options; arrays and objects are emptied in place. */
export function resetContext(ctx: SandboxContext): void {
	Object.assign(ctx.options, ctx.startOptions);
	resetState(ctx.state, ctx.options.groupCount);
	ctx.requests.length = 0;
	ctx.faults.reset();
	ctx.counters.contact = FIRST_CREATED_CONTACT_ID;
	ctx.counters.mediaRecord = 1;
	ctx.callbacks.cancelAll();
}

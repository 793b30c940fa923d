// `npm run sandbox -- [flags]`: the sandbox as a standalone local service, for demos and manual
// runs of the node against it. Logs one line per request (never headers or bodies).
import {
	REPORT_SECRET_WAYS,
	REPORT_SHAPES,
	type ReportSecretIn,
	type ReportShape,
} from './callbacks';
import { startSandbox, type SandboxOptions } from './index';
import {
	LIMITER_MODELS,
	type LimiterModel,
	RETRY_AFTER_STYLES,
	type RetryAfterStyle,
} from './limiters';

const USAGE = `Usage: npm run sandbox -- [flags]
  --chat-port N        chat host port (default 4010)
  --contacts-port N    contacts host port (default 4011)
  --latency MS         added to every answer (default 0)
  --rate-limit N       requests per second per host, beyond it 429 (default none)
  --rate-limit-model M how the limit is counted: sliding (any 1 s, default), fixed (1 s windows
                       aligned to the clock), tokenBucket (a bucket of --rate-limit-burst refilled
                       at N/s) or perMinute (N x 60 per clock minute)
  --rate-limit-quota-window MS
                       perMinute's window (default 60000); the quota scales with it
  --rate-limit-burst N token bucket size (default 20)
  --rate-limit-retry-after S
                       Retry-After of rate-limit 429s: seconds (default), none, or the hostile
                       zero, negative (-1) or pastDate
  --rate-limit-change-after MS --rate-limit-change-to N
                       the limit becomes N per second MS after a host's first request
  --failure-rate F     fraction 0..1 of authorised requests answered 500 (default 0)
  --groups N           number of seeded groups (default 25)
  --seed N             seed of the fault RNGs (default 42)
  --ignore-page-param  answer page 1 whatever ?page= says
  --runaway-pagination M  next_page never ends: repeat (known groups, shuffled) or fresh (new ids)
  --reset-rate F       fraction 0..1 of authorised requests whose socket is destroyed unanswered
  --reset-mode M       beforeHandling (nothing acted on, default), afterHandling (acted on, e.g.
                       the message recorded as sent, then reset) or mixed (each reset 50/50)
  --slow-rate F        fraction 0..1 of authorised requests acted on but answered after --slow-ms
  --slow-ms MS         delay of slow answers (default 1000)
  --malformed-json-rate F
                       fraction 0..1 of authorised requests acted on, then answered with a
                       truncated JSON body
  --wrong-content-type-rate F
                       fraction 0..1 of authorised requests answered 200 text/html, not acted on
  --burst-429 N        the next N requests get 429 with Retry-After: 1
  --burst-429-retry-after V  the Retry-After of those 429s: seconds, an HTTP date, or none
  --sms-delivery-ms MS an SMS is reported sent half-way and delivered after MS (default 2000)
  --report-shape S     delivery reports posted to status_url as flat (default), wrapped or form
  --report-secret-in W the report's status_secret in the body (default), a header or the query
  --whatsapp-webhook-url URL  post WhatsApp statuses of template sends there (Meta's shape)
  --whatsapp-webhook-secret S signs those posts (X-Hub-Signature-256)
  --help               this text`;

function fail(message: string): never {
	console.error(`${message}\n\n${USAGE}`);
	process.exit(2);
}

function number(flag: string, raw: string | undefined): number {
	const value = Number(raw);
	if (raw === undefined || raw.trim() === '' || !Number.isFinite(value)) {
		fail(`${flag} needs a number`);
	}
	return value;
}

export function parseArgs(argv: string[]): SandboxOptions {
	const options: SandboxOptions = { chatPort: 4010, contactsPort: 4011 };
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split(/=(.*)/s, 2);
		const value = () => inline ?? argv[++i];
		switch (flag) {
			case '--chat-port':
				options.chatPort = number(flag, value());
				break;
			case '--contacts-port':
				options.contactsPort = number(flag, value());
				break;
			case '--latency':
				options.latencyMs = number(flag, value());
				break;
			case '--rate-limit':
				options.rateLimitPerSecond = number(flag, value());
				break;
			case '--rate-limit-model': {
				const model = value() as LimiterModel;
				if (!LIMITER_MODELS.includes(model)) fail(`${flag} needs ${LIMITER_MODELS.join(', ')}`);
				options.rateLimitModel = model;
				break;
			}
			case '--rate-limit-burst':
				options.rateLimitBurst = number(flag, value());
				break;
			case '--rate-limit-retry-after': {
				const style = value() as RetryAfterStyle;
				if (!RETRY_AFTER_STYLES.includes(style)) {
					fail(`${flag} needs ${RETRY_AFTER_STYLES.join(', ')}`);
				}
				options.rateLimitRetryAfter = style;
				break;
			}
			case '--rate-limit-change-after':
				options.rateLimitChange = {
					perSecond: options.rateLimitChange?.perSecond ?? Number.NaN,
					afterMs: number(flag, value()),
				};
				break;
			case '--rate-limit-change-to':
				options.rateLimitChange = {
					afterMs: options.rateLimitChange?.afterMs ?? Number.NaN,
					perSecond: number(flag, value()),
				};
				break;
			case '--rate-limit-quota-window':
				options.rateLimitQuotaWindowMs = number(flag, value());
				break;
			case '--failure-rate':
				options.failureRate = number(flag, value());
				break;
			case '--groups':
				options.groupCount = number(flag, value());
				break;
			case '--seed':
				options.seed = number(flag, value());
				break;
			case '--reset-rate':
				options.resetRate = number(flag, value());
				break;
			case '--reset-mode': {
				const mode = value();
				if (mode !== 'beforeHandling' && mode !== 'afterHandling' && mode !== 'mixed') {
					fail(`${flag} needs beforeHandling, afterHandling or mixed`);
				}
				options.resetMode = mode;
				break;
			}
			case '--slow-rate':
				options.slowRate = number(flag, value());
				break;
			case '--slow-ms':
				options.slowMs = number(flag, value());
				break;
			case '--malformed-json-rate':
				options.malformedJsonRate = number(flag, value());
				break;
			case '--wrong-content-type-rate':
				options.wrongContentTypeRate = number(flag, value());
				break;
			case '--burst-429':
				options.burst429 = number(flag, value());
				break;
			case '--sms-delivery-ms':
				options.smsDeliveryMs = number(flag, value());
				break;
			case '--report-shape': {
				const shape = value();
				if (!REPORT_SHAPES.includes(shape as ReportShape)) {
					fail(`${flag} needs ${REPORT_SHAPES.join(', ')}`);
				}
				options.reportShape = shape as ReportShape;
				break;
			}
			case '--report-secret-in': {
				const way = value();
				if (!REPORT_SECRET_WAYS.includes(way as ReportSecretIn)) {
					fail(`${flag} needs ${REPORT_SECRET_WAYS.join(', ')}`);
				}
				options.reportSecretIn = way as ReportSecretIn;
				break;
			}
			case '--whatsapp-webhook-url':
				options.whatsappWebhookUrl = value();
				break;
			case '--whatsapp-webhook-secret':
				options.whatsappWebhookSecret = value();
				break;
			case '--burst-429-retry-after': {
				const retryAfter = value();
				if (retryAfter === undefined) fail(`${flag} needs a value`);
				options.burst429RetryAfter = retryAfter === 'none' ? null : retryAfter;
				break;
			}
			case '--ignore-page-param':
				options.ignorePageParam = true;
				break;
			case '--runaway-pagination': {
				const mode = value();
				if (mode !== 'off' && mode !== 'repeat' && mode !== 'fresh') {
					fail(`${flag} needs off, repeat or fresh`);
				}
				options.runawayPagination = mode;
				break;
			}
			case '--help':
				console.log(USAGE);
				process.exit(0);
			default:
				fail(`Unknown flag ${argv[i]}`);
		}
	}
	return options;
}

async function main(): Promise<void> {
	const options = parseArgs(process.argv.slice(2));
	const sandbox = await startSandbox(options, {
		onResponse(entry, ms) {
			const time = new Date().toISOString();
			console.log(
				`${time} ${entry.host.padEnd(8)} ${entry.method.padEnd(6)} ${entry.path} ${entry.status} ${ms}ms${entry.fault ? ` [${entry.fault}]` : ''}`,
			);
		},
	});
	const { state } = sandbox;
	console.log(`SMSLeopard API sandbox (local simulator)
  chat_url:  ${sandbox.chatUrl}   (channel '${sandbox.channel}')
  base_url:  ${sandbox.contactsUrl}
  API key:    ${sandbox.credentials.apiKey}
  API secret: ${sandbox.credentials.apiSecret}
Senders (id  phone_number  phone_number_id):`);
	for (const s of state.senders) {
		console.log(`  ${String(s.id).padEnd(3)} ${s.phone_number}  ${s.phone_number_id}`);
	}
	console.log('Templates (sender  id  status  category  header  buttons):');
	for (const s of state.senders) {
		for (const t of state.templates[s.id] ?? []) {
			const buttons = t.button.map((b) => b.type).join(',') || '-';
			console.log(
				`  ${s.id}  ${t.id.padEnd(18)} ${t.status.padEnd(8)} ${t.type.padEnd(14)} ${(t.header?.format ?? '-').padEnd(8)} ${buttons}`,
			);
		}
	}
	console.log(`Groups: ${state.groups.length}, contacts: ${state.contacts.length}. Ctrl+C stops.`);

	let stopping = false;
	const shutdown = (signal: string) => {
		if (stopping) return;
		stopping = true;
		console.log(`${signal}: stopping sandbox`);
		sandbox.stop().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('SIGINT', () => shutdown('SIGINT'));
	process.on('SIGTERM', () => shutdown('SIGTERM'));
}

if (require.main === module) {
	main().catch((err: unknown) => {
		console.error(err instanceof Error ? err.message : err);
		process.exit(1);
	});
}

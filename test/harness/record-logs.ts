// Jest `setupFiles` entry, after setup-env.ts: every line n8n logs during a test (through n8n-workflow's
// LoggerProxy, or n8n's Logger that node contexts hand out as `this.logger`) is recorded for the
// secret scan (test/secret-scan), so an API key or secret in a log line fails the run. The lines
// still reach n8n's own logger, which N8N_LOG_LEVEL keeps quiet.
import { Logger } from '@n8n/backend-common';
import { LoggerProxy } from 'n8n-workflow';
import { recordForSecretScan } from '../secret-scan/record';

type Level = 'error' | 'warn' | 'info' | 'debug';
type LogCall = (message: string, metadata?: unknown) => void;
const LEVELS: Level[] = ['error', 'warn', 'info', 'debug'];

const record = (level: Level, message: unknown, metadata: unknown) =>
	recordForSecretScan(`log line (${level})`, { message, metadata });

// A proxy line that n8n's Logger then writes is recorded once, by the proxy.
let insideProxy = false;
const proxy = LoggerProxy as unknown as Record<Level | 'init', unknown>;

function routeProxyTo(logger?: Record<Level, LogCall>): void {
	for (const level of LEVELS) {
		proxy[level] = (message: string, metadata?: unknown) => {
			record(level, message, metadata);
			insideProxy = true;
			try {
				logger?.[level](message, metadata);
			} finally {
				insideProxy = false;
			}
		};
	}
}

// n8n's Logger calls LoggerProxy.init(this) when it is created: keep recording behind it.
proxy.init = (logger: Record<Level, LogCall>) => routeProxyTo(logger);
routeProxyTo();

const prototype = Logger.prototype as unknown as Record<Level, LogCall>;
for (const level of LEVELS) {
	const write = prototype[level];
	prototype[level] = function (this: unknown, message: string, metadata?: unknown) {
		if (!insideProxy) record(level, message, metadata);
		write.call(this, message, metadata);
	};
}

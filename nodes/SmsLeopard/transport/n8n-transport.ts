/**
 * The client's transport inside n8n: every request goes through `httpRequestWithAuthentication`,
 * so n8n adds the credential's Basic authentication and applies its proxy and logging settings.
 * HTTP statuses and missing answers both come back as answers (the client maps them to its errors);
 * a failure keeps only its code, never the request's headers (they hold the credentials).
 */
import type {
	IAdditionalCredentialOptions,
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
} from 'n8n-workflow';
import {
	type Transport,
	type TransportFailure,
	type TransportRequest,
	type TransportResponse,
	encodeMultipart,
} from '../client';
import { answerDeadline, beforeDeadline } from './deadline';
import { MAX_ANSWER_BYTES, discardBody, readAnswer } from './read-answer';
import { type SsrfBlock, describeSsrfBlock, readFailure, ssrfBlockOf } from './request-failure';

export const CREDENTIAL_TYPE = 'smsLeopardApi';

function lowerCaseHeaders(headers: unknown): Record<string, string | undefined> {
	const result: Record<string, string | undefined> = {};
	if (headers && typeof headers === 'object') {
		for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
			result[name.toLowerCase()] = Array.isArray(value)
				? value.join(', ')
				: value === undefined
					? undefined
					: String(value);
		}
	}
	return result;
}

export class N8nTransport implements Transport {
	/**
	 * `credentials`: the credential as the node already read it, once per execution. Handed to n8n
	 * with each request, it spares n8n a database read and a decryption per request (what it does
	 * when it is not given), which queue behind one another with many requests in flight; n8n still
	 * applies the credential's own authentication to every request.
	 */
	constructor(
		private readonly context: IExecuteFunctions | ILoadOptionsFunctions,
		private readonly credentials?: ICredentialDataDecryptedObject,
	) {}

	/** Read once: n8n's getNode() copies the whole node, parameters and all, on every call. */
	private credentialReference?: { id?: string | null; name?: string };

	private credentialOptions(): IAdditionalCredentialOptions | undefined {
		if (!this.credentials) return undefined;
		const reference = (this.credentialReference ??=
			this.context.getNode().credentials?.[CREDENTIAL_TYPE] ?? {});
		return {
			credentialsDecrypted: {
				id: reference.id ?? '',
				name: reference.name ?? '',
				type: CREDENTIAL_TYPE,
				// A copy: n8n may add pre-authentication data to the object it is given.
				data: { ...this.credentials },
			},
		};
	}

	async request(request: TransportRequest): Promise<TransportResponse> {
		const options: IHttpRequestOptions = {
			method: request.method as IHttpRequestMethods,
			url: request.url,
			qs: request.query,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			json: true,
			timeout: request.timeoutMs,
			// The body is read here, not by axios: its timeout stops at the headers and it reads any
			// length, so a dripping or endless answer would run past the timeout and fill memory.
			encoding: 'stream',
			// Following redirects makes axios buffer the whole request body (an upload) in memory, and
			// would hand the credentials to another host; the API never redirects.
			disableFollowRedirect: true,
		};
		if (request.body?.type === 'json') {
			options.body = request.body.data as IHttpRequestOptions['body'];
			options.headers = { 'content-type': 'application/json' };
		} else if (request.body?.type === 'multipart') {
			const { form, headers } = await encodeMultipart(request.body.fields, request.body.file);
			options.body = form;
			options.headers = headers;
			options.json = false;
		}
		// One deadline for the whole answer: axios's timeout only ends a socket that goes idle.
		const deadline = answerDeadline(request.timeoutMs ?? 60_000);
		let answered: Awaited<ReturnType<typeof beforeDeadline<FullResponse>>>;
		try {
			answered = await beforeDeadline(
				this.context.helpers.httpRequestWithAuthentication.call(
					this.context,
					CREDENTIAL_TYPE,
					options,
					this.credentialOptions(),
				) as Promise<FullResponse>,
				deadline,
				(late) => discardBody(late?.body),
			);
		} catch (error) {
			const blocked = ssrfBlockOf(error);
			if (blocked) return ssrfRefusal(request.url, blocked);
			// Only the code is kept: n8n's error holds the request, whose headers carry the credentials.
			const { code, requestSent } = readFailure(error);
			return noAnswer({
				code,
				requestSent,
				message: `Could not reach ${new URL(request.url).origin} (${code})`,
			});
		}
		// No headers before the deadline: the request was written, its answer never came.
		if (answered.expired) return lostAnswer(request.url, 'ETIMEDOUT');
		const response = answered.value;
		const headers = lowerCaseHeaders(response.headers);
		const read = await readAnswer(response.body, headers, deadline);
		if ('failure' in read) return lostAnswer(request.url, read.failure);
		return { status: response.statusCode ?? 0, headers, body: read.body };
	}
}

type FullResponse = { statusCode?: number; headers?: unknown; body?: unknown };

const noAnswer = (failure: TransportFailure): TransportResponse => ({
	status: 0,
	headers: {},
	body: undefined,
	failure,
});

/** The request went out and its answer did not come whole: too large, too slow or cut. */
function lostAnswer(url: string, code: string): TransportResponse {
	const origin = new URL(url).origin;
	return noAnswer({
		code,
		requestSent: true,
		message:
			code === 'ETOOLARGE'
				? `The answer of ${origin} is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MB and was not read (ETOOLARGE)`
				: `The answer of ${origin} did not end within the timeout (${code})`,
	});
}

/** The failure's code for an SSRF refusal: n8n's error carries no system code. */
const SSRF_BLOCKED = 'SSRF_BLOCKED';

/** n8n's SSRF protection refused the request before it left: not sent, and no retry can pass. */
function ssrfRefusal(url: string, blocked: SsrfBlock): TransportResponse {
	return noAnswer({
		code: SSRF_BLOCKED,
		requestSent: false,
		blockedLocally: true,
		message: describeSsrfBlock(url, blocked),
	});
}

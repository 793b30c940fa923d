/**
 * The only door between the client and the network. The client builds requests and reads answers;
 * a transport moves bytes and adds authentication. Inside n8n the transport is built on
 * `helpers.httpRequestWithAuthentication`; in scripts and tests it is plain Node (node-http-transport.ts).
 */
import type { Readable } from 'stream';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/** A file to send as a multipart part. `open` is a factory so a retried upload can start over. */
export interface MultipartFile {
	fieldName: string;
	fileName: string;
	contentType: string;
	/** Exact length in bytes: sent up front so the file streams without being buffered. */
	length: number;
	open(): Readable;
}

export type RequestBody =
	| { type: 'json'; data: unknown }
	| { type: 'multipart'; fields: Record<string, string>; file: MultipartFile };

export interface TransportRequest {
	method: HttpMethod;
	/** Absolute URL without query string. */
	url: string;
	query?: Record<string, string | number>;
	body?: RequestBody;
	timeoutMs?: number;
}

export interface TransportResponse {
	status: number;
	/** Header names in lower case. */
	headers: Record<string, string | undefined>;
	/** Parsed JSON when the answer was JSON, otherwise the raw text. */
	body: unknown;
}

/**
 * Sends one request. Every HTTP status is returned, never thrown: the client decides what an error is.
 * A failure to get any answer is thrown as `SmsLeopardConnectionError`, saying whether the request
 * could have reached the server (which decides whether a send may be retried).
 */
export interface Transport {
	request(request: TransportRequest): Promise<TransportResponse>;
}

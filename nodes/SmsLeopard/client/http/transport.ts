/**
 * The only door between the client and the network. The client builds requests and reads answers;
 * a transport moves bytes and adds authentication. Inside n8n the transport is built on
 * `helpers.httpRequestWithAuthentication`; in scripts and tests it is plain Node (node-http-transport.ts).
 */
export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/** File bytes: a buffer, or a stream read once (`NodeJS.ReadableStream` needs no import of 'stream'). */
export type FileContent = Buffer | NodeJS.ReadableStream;

/** A file to send as a multipart part. `open` is a factory so a retried upload can start over. */
export interface MultipartFile {
	fieldName: string;
	fileName: string;
	contentType: string;
	/** Exact length in bytes: sent up front so the file streams without being buffered. */
	length: number;
	open(): FileContent | Promise<FileContent>;
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
	/** Set when no answer came at all; `status` is then 0. */
	failure?: TransportFailure;
	/** Header names in lower case. */
	headers: Record<string, string | undefined>;
	/** Parsed JSON when the answer was JSON, otherwise the raw text. */
	body: unknown;
}

/**
 * No answer at all. `requestSent` is false only when the request surely never reached the server
 * (connection refused, host not found): that decides whether a send may be retried.
 */
export interface TransportFailure {
	code: string;
	requestSent: boolean;
	message: string;
	/**
	 * Refused on this side before the request left, by a rule that a retry cannot change (n8n's SSRF
	 * protection): not sent, and not retried. Absent: false.
	 */
	blockedLocally?: boolean;
}

/**
 * Sends one request and never throws: every HTTP status is returned, and so is a missing answer (as
 * `failure`). The client decides what an error is and throws its own typed errors.
 */
export interface Transport {
	request(request: TransportRequest): Promise<TransportResponse>;
}

/**
 * Turns the client's typed errors into n8n errors that name the item, the field and what to do, and
 * into the error item that "Continue On Fail" outputs. Nothing here copies request headers, so the
 * credential never reaches an error or an output item.
 */
import {
	type IDataObject,
	type INode,
	type JsonObject,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';
import {
	SmsLeopardApiError,
	SmsLeopardConnectionError,
	SmsLeopardUnconfirmedError,
	SmsLeopardValidationError,
} from '../client';
import { fieldLabel, labelIsWords } from './field-labels';
import { itemLabel } from './item-label';
import { itemMayHaveBeenSent } from './send-state';

const ACTION = Symbol('smsleopard.action');

/**
 * Marks an error with what the user was doing ("Sending template 'x' to +254…"), so a failure of a
 * preparatory call (listing the sender numbers) does not read as if the user had asked for it.
 */
export function duringAction(error: unknown, action: string): unknown {
	if (error instanceof Error && !(ACTION in error))
		Object.defineProperty(error, ACTION, { value: action, enumerable: false });
	return error;
}

/** The error's message, led by what the user was doing when one was recorded. */
export function messageOf(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	const action =
		error instanceof Error ? (error as Error & { [ACTION]?: string })[ACTION] : undefined;
	return action ? `${action}: ${message}` : message;
}

/** A field's name in quotes ("Recipient"); a label in words (the first button) as it is. */
function quotedLabel(field: string): string {
	const label = fieldLabel(field);
	return labelIsWords(label) ? label : `"${label}"`;
}

export function describeValidation(error: SmsLeopardValidationError): string {
	const listed = error.issues
		.map((issue) => (issue.field ? `${quotedLabel(issue.field)} ${issue.message}` : issue.message))
		.join('; ');
	// The client lists only the first problems of a huge input; say how many more there were.
	const more = error.moreIssues;
	return more > 0 ? `${listed}; and ${more} more problem${more === 1 ? '' : 's'}` : listed;
}

/** An n8n error for a failed item; `extraDescription` adds context such as what was already sent. */
export function toNodeError(
	node: INode,
	error: unknown,
	itemIndex: number,
	extraDescription?: string,
): NodeApiError | NodeOperationError {
	const suffix = extraDescription ? `\n\n${extraDescription}` : '';
	// What comes before the run's summary ends as a sentence: "…not found.\n\nSent: none."
	const ended = (text: string) => (suffix && !/[.!?]$/.test(text.trimEnd()) ? `${text}.` : text);
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (suffix) {
			error.description = error.description
				? `${ended(error.description)}${suffix}`
				: suffix.trim();
		}
		return error;
	}
	if (error instanceof SmsLeopardValidationError) {
		return new NodeOperationError(
			node,
			`Invalid input in ${itemLabel(itemIndex)}: ${describeValidation(error)}`,
			{
				itemIndex,
				description: `Nothing was sent for ${itemLabel(itemIndex)}. Correct the field named above (or the expression that fills it) and run again.${suffix}`,
			},
		);
	}
	if (error instanceof SmsLeopardApiError) {
		return new NodeApiError(node, { message: error.apiMessage, code: error.code } as JsonObject, {
			message: messageOf(error),
			description: `${ended(`${capital(itemLabel(itemIndex))}: SMSLeopard answered HTTP ${error.status} (${error.code}): ${error.apiMessage}`)}${suffix}`,
			httpCode: String(error.status),
			itemIndex,
		});
	}
	if (error instanceof SmsLeopardUnconfirmedError) {
		// Its own message names the items that may have gone out; n8n's wording for the network code
		// must not replace it.
		return new NodeOperationError(node, error.message, {
			itemIndex,
			description: `${capital(itemLabel(itemIndex))} may have been sent (code ${error.causeCode}); it was not sent again.${suffix}`,
		});
	}
	if (error instanceof SmsLeopardConnectionError) {
		const nodeError = new NodeApiError(
			node,
			{ message: error.message, code: error.causeCode } as JsonObject,
			{
				message: error.message,
				description: `${ended(`${capital(itemLabel(itemIndex))}: ${connectionAdvice(error)}`)}${suffix}`,
				itemIndex,
			},
		);
		// NodeApiError swaps a message that names a network code (ECONNRESET…) for n8n's generic
		// text, losing what the node said ("Maybe sent: …", which items): put it back.
		nodeError.message = error.message;
		return nodeError;
	}
	// An unreadable answer (SmsLeopardResponseError) and anything else: the message says it all.
	return new NodeOperationError(node, messageOf(error), {
		itemIndex,
		description: suffix.trim() || undefined,
	});
}

/** What a connection error means for the item and what to do, after "Item 1 (index 0): ". */
function connectionAdvice(error: SmsLeopardConnectionError): string {
	// The message names the host and the setting; retrying as it is cannot pass.
	if (error.blockedLocally && !itemMayHaveBeenSent(error))
		return "n8n refused to send the request (its settings, named above), so nothing was sent: it is safe to run again once they allow the host of the credential's URL. Whoever runs n8n sets them, on every n8n process in queue mode.";
	return `no answer from SMSLeopard. Check the URLs of the credential and the network.${itemMayHaveBeenSent(error) ? ' The request may have reached the service: check before sending it again.' : error.requestSent ? ' Nothing was sent: it is safe to run again.' : ' The request did not reach the service: it is safe to run again.'}`;
}

function capital(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The json of the item "Continue On Fail" outputs in place of a failed one. Every one says whether
 * the item may have been sent (true: check before running it again; false: safe to run again).
 */
export function errorItemJson(error: unknown): IDataObject {
	return { ...errorDetails(error), mayHaveBeenSent: itemMayHaveBeenSent(error) };
}

function errorDetails(error: unknown): IDataObject {
	if (error instanceof SmsLeopardValidationError) {
		return {
			error: describeValidation(error),
			errorKind: 'validation',
			fields: error.issues.map((issue) => fieldLabel(issue.field)),
		};
	}
	if (error instanceof SmsLeopardApiError) {
		return {
			error: messageOf(error),
			errorKind: error.kind,
			httpStatus: error.status,
			code: error.code,
		};
	}
	if (error instanceof SmsLeopardConnectionError) {
		return {
			error: messageOf(error),
			errorKind: 'connection',
			code: error.causeCode,
		};
	}
	if (error instanceof NodeApiError) {
		return {
			error: error.message,
			httpStatus: error.httpCode ? Number(error.httpCode) : undefined,
			description: error.description ?? undefined,
		};
	}
	return { error: messageOf(error) };
}

/**
 * The json of a failed item under "Continue (using error output)". n8n moves an item to the error
 * output only when its json is `{ error }` alone (or it carries `item.error`, but then n8n-core
 * replaces the whole json with the bare message, losing the details and the input's fields). So the
 * details sit inside `error`, and n8n adds the input item's fields beside it on the error branch.
 */
export function errorOutputJson(
	nodeError: NodeApiError | NodeOperationError,
	error: unknown,
): IDataObject {
	const { error: message, ...details } = errorItemJson(error);
	return {
		error: {
			message,
			...details,
			description: nodeError.description ?? details.description ?? undefined,
		},
	};
}

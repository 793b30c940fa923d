/**
 * Runs the chosen operation for every input item, a bounded number at a time, and keeps the output in
 * input order with each output item paired to its input item. A failing item either becomes an error
 * item (Continue On Fail) or stops the run: no new item starts, the ones in flight finish, and the
 * error sorts every item into sent, maybe sent and not sent, so a rerun can skip the right ones.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { settle } from '../client/http/settle';
import { errorItemJson, errorOutputJson, toNodeError } from '../helpers/node-errors';
import { credentialSecrets, redactDeep, redactError, redactOutput } from '../helpers/redact';
import type { SmsLeopardClient } from '../client';
import { clientForNode } from '../transport/client-for-node';
import { CREDENTIAL_TYPE } from '../transport/n8n-transport';
import { type ExecutionState, newExecutionState } from '../helpers/execution-state';
import { runPool } from '../helpers/worker-pool';
import { pauseEvery } from '../helpers/let-others-run';
import { accountKey } from '../helpers/account-key';
import { KEPT_LISTINGS } from '../helpers/kept-listings';
import { RunListings } from '../helpers/run-listings';
import { noteOncePerRun } from '../helpers/run-notes';
import { withParametersReadOnce } from '../helpers/parameters-once';
import {
	type DryRun,
	type DryRunUnit,
	type ItemOutcome,
	type Operation,
	isBatchOperation,
} from './operation';
import { type OutputShape, readRequestOptions } from './request-options';
import { keptOfSent, summaryOutput } from './summary-output';
import { type MovedInputFields, movedFieldsNote, withInputFields } from './include-input-fields';
import { properties, resources } from './resources';
import { summariseRun } from './run-summary';
import { dryRunSummary, readDryRun, refusedInDryRun } from './dry-run';

export async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	// Every operation reads its parameters through this context: once per item, or once per run
	// when they hold no expression (helpers/parameters-once.ts).
	return await routeItems.call(withParametersReadOnce(this, properties));
}

async function routeItems(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const handler = resources[resource]?.[operation];
	if (!handler) {
		throw toNodeError(
			this.getNode(),
			new Error(`The operation "${operation}" of "${resource}" is not supported`),
			0,
		);
	}
	const options = readRequestOptions(this);
	const workers = Math.min(options.concurrency, items.length);
	const client = await clientForNode(this, {
		retry: options.retry,
		timeoutMs: options.timeoutMs,
		requestsPerSecond: options.requestsPerSecond,
		sharedBy: options.sharedBy,
		parallelCalls: workers,
		shareAccountPacing: true,
	});
	try {
		return await runItems.call(this, items, handler, client, workers, options);
	} finally {
		client.close();
	}
}

/**
 * Every item through the operation with the run's client, `workers` at a time, then the output in
 * input order.
 */
async function runItems(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	handler: Operation,
	client: SmsLeopardClient,
	workers: number,
	options: { keepListingsMs: number; output: OutputShape },
): Promise<INodeExecutionData[][]> {
	const { keepListingsMs } = options;
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const webhookSecret =
		typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret : '';
	const listings = new RunListings(KEPT_LISTINGS, accountKey(credentials), keepListingsMs);
	const state: ExecutionState = newExecutionState(client, listings, webhookSecret);
	const continueOnFail = this.continueOnFail();
	const toErrorOutput = this.getNode().onError === 'continueErrorOutput';
	const includeInput = this.getNodeParameter('includeInputFields', 0, false) === true;
	const moved: MovedInputFields = new Map();
	const dryRun = readDryRunOf(this, handler.dryRunUnit);
	// A dry run lists every item whatever the Output: it is read, not recorded.
	const summary = options.output === 'summary' && !dryRun.on && !!handler.recipientParameter;
	// In summary mode a sent item keeps a few fields from the moment it is sent (memory per item).
	const keep = summary ? keptOfSent : (results: IDataObject[]) => results;
	const outcomes: Array<ItemOutcome | undefined> = new Array(items.length);
	// A refused dry-run row names its recipient as typed, like the rows beside it.
	const recipientShown = (itemIndex: number) =>
		handler.recipientParameter
			? this.getNodeParameter(handler.recipientParameter, itemIndex, '')
			: undefined;
	if (isBatchOperation(handler)) {
		// Batch operations (SMS) group items into requests themselves; outcomes stay per item.
		const run = {
			itemCount: items.length,
			concurrency: workers,
			stopOnFailure: !continueOnFail,
			dryRun,
		};
		(await handler.executeBatch.call(this, state, run)).forEach((outcome, itemIndex) => {
			outcomes[itemIndex] = outcome?.ok ? { ok: true, results: keep(outcome.results) } : outcome;
		});
		if (dryRun.on) listRefusals(outcomes, recipientShown);
	} else {
		// Every item is checked before the first request that sends or changes something: without
		// Continue On Fail, one refused item stops the run with nothing sent.
		const prepared: unknown[] = new Array(items.length);
		const { prepare } = handler;
		if (prepare) {
			// Another execution of this process may be sending meanwhile: let it (let-others-run.ts).
			const letOthersRun = pauseEvery({ othersSending: () => state.client.othersSendingBeside() });
			await runPool(items.length, workers, false, async (itemIndex) => {
				await letOthersRun();
				const ran = await settle(async () => await prepare.call(this, itemIndex, state));
				if (ran.ok) prepared[itemIndex] = ran.value;
				else outcomes[itemIndex] = { ok: false, error: ran.error };
				return { failed: !ran.ok };
			});
		}
		// A dry run lists a refused item beside the others instead of stopping at it.
		if (dryRun.on) listRefusals(outcomes, recipientShown);
		// Without Continue On Fail a refused item runs nothing: its error says nothing was sent.
		const mayRun = continueOnFail || !outcomes.some((outcome) => outcome && !outcome.ok);
		const { preview } = handler;
		if (mayRun && dryRun.on && preview) {
			// Checked like a send, and nothing sent: what each item would send instead.
			for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
				if (outcomes[itemIndex]) continue;
				const json = preview.call(this, itemIndex, prepared[itemIndex], dryRun);
				outcomes[itemIndex] = { ok: true, results: [json] };
			}
		} else if (mayRun) {
			await runPool(items.length, workers, !continueOnFail, async (itemIndex) => {
				if (outcomes[itemIndex]) return { failed: false }; // refused when prepared
				const ran = await settle(
					async () => await handler.execute.call(this, itemIndex, state, prepared[itemIndex]),
				);
				// Its request is sent: let it go, so a run of 100,000 holds no 100,000 request bodies.
				prepared[itemIndex] = undefined;
				outcomes[itemIndex] = ran.ok
					? { ok: true, results: keep(Array.isArray(ran.value) ? ran.value : [ran.value]) }
					: { ok: false, error: ran.error };
				return { failed: !ran.ok };
			});
		}
	}

	// After the run: the items' own secrets are known once every item was read.
	const secrets = credentialSecrets(credentials, state.bodySecrets);
	// Without Continue On Fail the first failed item stops the run, its error saying who was sent.
	if (!continueOnFail) {
		const failed = outcomes.findIndex((outcome) => outcome && !outcome.ok);
		const failure = outcomes[failed];
		if (failure && !failure.ok) {
			throw redactError(
				toNodeError(this.getNode(), failure.error, failed, summariseRun(outcomes, items.length)),
				secrets,
			);
		}
	}
	// A failed item's output under Continue On Fail, on the error output or the regular one.
	const failedJson = (itemIndex: number, error: unknown): IDataObject =>
		toErrorOutput
			? errorOutputJson(toNodeError(this.getNode(), error, itemIndex), error)
			: errorItemJson(error);
	if (summary) {
		const recipientParameter = handler.recipientParameter as string;
		const output = summaryOutput({
			outcomes,
			itemCount: items.length,
			recipientOf: (itemIndex) => {
				const value = this.getNodeParameter(recipientParameter, itemIndex, '');
				return typeof value === 'string' ? value : String(value);
			},
			problemJson: (itemIndex, error, about) => {
				const failure = failedJson(itemIndex, error);
				// n8n moves an item to the error output only when `error` is its one field (and adds
				// the input item's fields itself), so the recipient and outcome go inside it.
				if (toErrorOutput) return { error: { ...(failure.error as IDataObject), ...about } };
				const json = { ...failure, ...about };
				return includeInput ? withInputFields(items[itemIndex].json, [json], moved)[0] : json;
			},
		});
		noteMovedFields(this, state, moved);
		return [output.map((entry) => ({ ...entry, json: redactDeep(entry.json, secrets) }))];
	}
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const outcome = outcomes[itemIndex];
		if (!outcome) continue;
		if (outcome.ok) {
			const results = this.helpers.constructExecutionMetaData(
				this.helpers.returnJsonArray(
					redactOutput(
						includeInput
							? withInputFields(items[itemIndex].json, outcome.results, moved)
							: outcome.results,
						secrets,
					),
				),
				{ itemData: { item: itemIndex } },
			);
			// One at a time: spread into one call, some 125,000 results (Group > Get Many) overflow the stack.
			for (const result of results) output.push(result);
		} else {
			output.push({
				json: redactDeep(failedJson(itemIndex, outcome.error), secrets),
				pairedItem: { item: itemIndex },
			});
		}
	}
	if (dryRun.on && handler.dryRunUnit) {
		noteOncePerRun(this, state, dryRunSummary(dryRun, handler.dryRunUnit, outcomes));
	}
	noteMovedFields(this, state, moved);
	return [output];
}

/** Says so above the output when Include Input Fields moved an input's own field under `input`. */
function noteMovedFields(
	context: IExecuteFunctions,
	state: ExecutionState,
	moved: MovedInputFields,
): void {
	const note = movedFieldsNote(moved);
	if (note) noteOncePerRun(context, state, note);
}

/** In a dry run, every item the checks refused becomes an output saying why and how to fix it. */
function listRefusals(
	outcomes: Array<ItemOutcome | undefined>,
	recipientOf: (itemIndex: number) => unknown,
): void {
	outcomes.forEach((outcome, itemIndex) => {
		const refusal =
			outcome && !outcome.ok
				? refusedInDryRun(outcome.error, () => recipientOf(itemIndex))
				: undefined;
		if (refusal) outcomes[itemIndex] = { ok: true, results: [refusal] };
	});
}

/** Dry Run as the operation offers it; a bad price is an error on the first item. */
function readDryRunOf(context: IExecuteFunctions, unit: DryRunUnit | undefined): DryRun {
	if (!unit) return { on: false };
	try {
		return readDryRun(context, unit);
	} catch (error) {
		throw toNodeError(context.getNode(), error, 0);
	}
}

/** The embedded SMSLeopard client: everything the n8n node and scripts use comes from here. */
export * from './client';
export * from './errors';
export * from './transport';
export * from './button-names';
export * from './components';
export * from './media-types';
export * from './phone-number';
export { numberTextProblem } from './number-text';
export type { MediaRecord, MediaSource, PreparedUpload, UploadMediaRequest } from './media';
export type { SendTemplateRequest, SendTemplateResult, SendTemplateBody } from './messages';
export { buildSendTemplateBody } from './messages';
export {
	type PreparedTemplateMessage,
	type TemplateMessageChecks,
	prepareTemplateMessage,
	withMediaId,
} from './template-message';
export type {
	Contact,
	CreateContactRequest,
	CustomAttribute,
	DeleteContactResult,
} from './contacts';
export type { Group, GroupsPage, GroupsPageRequest, AllGroupsRequest } from './groups';
export { type SenderNumber, senderRecordId } from './senders';
export * from './answer-values';
export * from './templates';
export { prepareUpload } from './media';
export { DEFAULT_RETRY, type RetryOptions, type Sleep } from './retry';
export { MAX_RATE_LIMIT_WAIT_MS, MAX_TIMEOUT_MS, MIN_REQUESTS_PER_SECOND } from './wait-limits';
export { encodeMultipart } from './multipart';
export { headerMediaCategory } from './template-rules';
export {
	type Balance,
	type DeliveryReport,
	type CheckedSms,
	type CheckedSmsRecipient,
	type PreparedSms,
	type SendSmsAnswer,
	type SmsShared,
	type SendSmsBody,
	type SendSmsRequest,
	type SmsRecipientInput,
	checkSendSms,
	currencyOf,
	prepareSendSms,
	smsRequest,
} from './sms';
export { type PlannedSmsRequest, type SmsPlan, type SmsSend, planSms } from './sms-plan';
export {
	GSM_ONLY_PATTERN,
	SMS_LIMITS,
	SMS_PART_SIZES_IN_WORDS,
	type SmsEncoding,
	type SmsSegments,
	countSmsSegments,
	isGsmCharacter,
} from './sms-segments';
export {
	LOCAL_COUNTRY_CODE,
	type RecipientEntry,
	internationalDigits,
	pairRecipients,
	readRecipientEntry,
	sameNumber,
} from './recipient-pairing';
export { type FailureEvidence, mayHaveBeenSent, stampSendState } from './send-state';

export { type DeliveryOutcome, isFinalOutcome, outcomeOf } from './delivery-outcome';
export type { WebhookEvent, WebhookEventKind } from './webhook-event';
export { parseWebhookBody, readWebhookEvents } from './webhook-events';
export {
	type SecretPresentation,
	type SecretVerdict,
	type WebhookRequest,
	carriesSecret,
	checkSecret,
	matchesSecret,
	placesLookedIn,
	presentedPlaces,
	withoutSecret,
} from './webhook-secret';
export { type KeptBody, MAX_KEPT_DEPTH, keptBody } from './webhook-body';
export { type ReportFields, readReportFields } from './report-fields';
export { AccountPacers, type PacerLease } from './account-pacers';

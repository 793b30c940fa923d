/** The embedded SMSLeopard client: everything the n8n node and scripts use comes from here. */
export * from './client';
export * from './http/errors';
export * from './http/transport';
export * from './whatsapp/button-names';
export * from './whatsapp/components';
export * from './whatsapp/media-types';
export * from './values/phone-number';
export { numberTextProblem } from './values/number-text';
export { DEFAULT_COUNTRY_CODE, phoneNormalForm } from './values/phone-normal-form';
export {
	OPT_IN_WORDS,
	OPT_OUT_WORDS,
	type OptOutChoice,
	optOutWordForm,
	optOutWordOf,
} from './values/opt-out-words';
export type {
	MediaRecord,
	MediaSource,
	PreparedUpload,
	UploadMediaRequest,
} from './whatsapp/media';
export type {
	SendTemplateRequest,
	SendTemplateResult,
	SendTemplateBody,
} from './whatsapp/messages';
export { buildSendTemplateBody } from './whatsapp/messages';
export {
	type PreparedTemplateMessage,
	type TemplateMessageChecks,
	prepareTemplateMessage,
	withMediaId,
} from './whatsapp/template-message';
export type {
	Contact,
	CreateContactRequest,
	CustomAttribute,
	DeleteContactResult,
} from './contacts/contacts';
export type { Group, GroupsPage, GroupsPageRequest, AllGroupsRequest } from './contacts/groups';
export { type SenderNumber, senderRecordId } from './whatsapp/senders';
export * from './http/answer-values';
export * from './whatsapp/templates';
export { prepareUpload } from './whatsapp/media';
export { DEFAULT_RETRY, type RetryOptions, type Sleep } from './http/retry';
export {
	MAX_RATE_LIMIT_WAIT_MS,
	MAX_TIMEOUT_MS,
	MIN_REQUESTS_PER_SECOND,
} from './http/wait-limits';
export { encodeMultipart } from './whatsapp/multipart';
export { headerMediaCategory } from './whatsapp/template-rules';
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
} from './sms/sms';
export { type PlannedSmsRequest, type SmsPlan, type SmsSend, planSms } from './sms/sms-plan';
export {
	GSM_ONLY_PATTERN,
	SMS_LIMITS,
	SMS_PART_SIZES_IN_WORDS,
	type SmsEncoding,
	type SmsSegments,
	countSmsSegments,
	isGsmCharacter,
} from './sms/sms-segments';
export {
	LOCAL_COUNTRY_CODE,
	type RecipientEntry,
	internationalDigits,
	pairRecipients,
	readRecipientEntry,
	sameNumber,
} from './http/recipient-pairing';
export { type FailureEvidence, mayHaveBeenSent, stampSendState } from './http/send-state';

export { type DeliveryOutcome, isFinalOutcome, outcomeOf } from './inbound/delivery-outcome';
export type { WebhookEvent, WebhookEventKind } from './inbound/report-fields';
export { parseWebhookBody, readWebhookEvents } from './inbound/webhook-events';
export type { OptOutSettings } from './inbound/opt-out-marks';
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
} from './inbound/webhook-secret';
export { type KeptBody, MAX_KEPT_DEPTH, keptBody } from './inbound/webhook-body';
export { type ReportFields, readReportFields } from './inbound/report-fields';
export { AccountPacers, type PacerLease } from './http/account-pacers';

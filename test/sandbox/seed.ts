// The data every sandbox starts from (and returns to on reset). Exported by name so tests can say
// `TEMPLATES.documentHeader.id` instead of repeating magic strings. Never mutated: state.ts clones it.
import type {
	ButtonType,
	ContactRecord,
	Group,
	Sender,
	Template,
	TemplateButton,
	TemplateCategory,
	TemplateHeader,
	TemplateStatus,
} from './types';

// Demo credentials of a local simulator; printing them is intended (the CLI shows them).
export const SANDBOX_API_KEY = 'sandbox-key';
export const SANDBOX_API_SECRET = 'sandbox-secret-0123456789';

/** The sub-account that owns the groups and contacts. */
export const ACCOUNT_ID = 77;

/** SMS sender IDs of the account (matched without regard to case, as the docs spell both). */
export const SMS_SENDER_IDS: readonly string[] = ['SMS_Leopard'];
/** Price of one SMS part, as the documented answer shows it ("Cost KES 0.90"). */
export const SMS_COST_PER_PART = 0.9;
export const SMS_CURRENCY = 'KES';
/** KES to USD, for the balance's converted_balance. */
export const SMS_USD_RATE = 0.0077;
export const SMS_START_BALANCE = 100_000;
/** Numbers ending so are never delivered: their report ends UNDELIV. */
export const SMS_UNDELIVERABLE_SUFFIX = '999';
export const CREATOR_ID = 5;
/** Another account: its contact exists but may not be deleted by us (403). */
export const FOREIGN_ACCOUNT_ID = 78;

export const SENDERS = {
	primary: {
		id: 1,
		business_account_id: 501,
		phone_number: '+254700000001',
		phone_number_id: '110000000000001',
		whatsapp_account_id: '210000000000501',
		messaging_limit: 1000,
	},
	secondary: {
		id: 2,
		business_account_id: 502,
		phone_number: '+254700000002',
		phone_number_id: '110000000000002',
		whatsapp_account_id: '210000000000502',
		messaging_limit: 0,
	},
} satisfies Record<string, Sender>;

export const SEED_SENDERS: readonly Sender[] = [SENDERS.primary, SENDERS.secondary];

function button(
	type: ButtonType,
	text: string,
	extra: Partial<TemplateButton> = {},
): TemplateButton {
	// Every key is always present (empty when not applicable), as a typed backend would serialise it.
	return { type, text, url: '', phone_number: '', ...extra };
}

interface TemplateSpec {
	id: string;
	name: string;
	type: TemplateCategory;
	message: string;
	status?: TemplateStatus;
	header?: TemplateHeader;
	footer?: string;
	button?: TemplateButton[];
}

function template(sender: Sender, spec: TemplateSpec): Template {
	return {
		id: spec.id,
		account_id: sender.business_account_id,
		name: spec.name,
		language: 'en_US',
		status: spec.status ?? 'APPROVED',
		type: spec.type,
		header: spec.header ?? null,
		message: spec.message,
		footer: spec.footer ?? '',
		button: spec.button ?? [],
	};
}

const P = SENDERS.primary;
const S = SENDERS.secondary;

export const TEMPLATES = {
	bodyOnly: template(P, {
		id: 'tpl_order_update',
		name: 'order_update',
		type: 'UTILITY',
		message: 'Hi {{1}}, your order {{2}} has shipped.',
	}),
	textHeader: template(P, {
		id: 'tpl_welcome',
		name: 'welcome',
		type: 'MARKETING',
		header: { format: 'TEXT', text: 'Welcome {{1}}!' },
		message: 'Hello {{1}}, thanks for joining {{2}}.',
		footer: 'Reply STOP to opt out',
	}),
	documentHeader: template(P, {
		id: 'tpl_invoice',
		name: 'invoice',
		type: 'UTILITY',
		header: { format: 'DOCUMENT' },
		message: 'Invoice {{1}} is attached.',
	}),
	imageHeader: template(P, {
		id: 'tpl_new_arrivals',
		name: 'new_arrivals',
		type: 'MARKETING',
		header: { format: 'IMAGE' },
		message: '{{1}}, see our new arrivals.',
	}),
	videoHeader: template(P, {
		id: 'tpl_product_video',
		name: 'product_video',
		type: 'MARKETING',
		header: { format: 'VIDEO' },
		message: 'Watch how {{1}} works.',
	}),
	urlButton: template(P, {
		id: 'tpl_track_parcel',
		name: 'track_parcel',
		type: 'UTILITY',
		message: 'Your parcel {{1}} is on its way.',
		button: [button('URL', 'Track', { url: 'https://shop.example.com/track/{{1}}' })],
	}),
	quickReplies: template(P, {
		id: 'tpl_feedback',
		name: 'feedback',
		type: 'MARKETING',
		message: 'Hi {{1}}, did you enjoy your visit?',
		button: [button('QUICK_REPLY', 'Yes'), button('QUICK_REPLY', 'No')],
	}),
	phoneButton: template(P, {
		id: 'tpl_call_us',
		name: 'call_us',
		type: 'UTILITY',
		message: 'Questions about {{1}}? Call us.',
		button: [button('PHONE_NUMBER', 'Call us', { phone_number: '+254700111222' })],
	}),
	authCode: template(P, {
		id: 'tpl_otp',
		name: 'otp',
		type: 'AUTHENTICATION',
		message: '*{{1}}* is your verification code. For your security, do not share this code.',
		button: [
			button('URL', 'Copy code', {
				url: 'https://www.whatsapp.com/otp/code/?otp_type=COPY_CODE&code=otp{{1}}',
			}),
		],
	}),
	flow: template(P, {
		id: 'tpl_book_flow',
		name: 'book_flow',
		type: 'MARKETING',
		message: 'Book your next appointment in a few taps.',
		button: [button('FLOW', 'Book now')],
	}),
	mixedButtons: template(P, {
		id: 'tpl_promo',
		name: 'promo',
		type: 'MARKETING',
		header: { format: 'IMAGE' },
		message: 'Hi {{1}}, {{2}} off today only.',
		button: [
			button('QUICK_REPLY', 'Stop promotions'),
			button('URL', 'Shop now', { url: 'https://shop.example.com/promo/{{1}}' }),
			button('PHONE_NUMBER', 'Call', { phone_number: '+254700111222' }),
		],
	}),
	pending: template(P, {
		id: 'tpl_pending',
		name: 'pending_notice',
		type: 'UTILITY',
		status: 'PENDING',
		message: 'Your request {{1}} is being reviewed.',
	}),
	rejected: template(P, {
		id: 'tpl_rejected',
		name: 'rejected_offer',
		type: 'MARKETING',
		status: 'REJECTED',
		message: 'Win big with {{1}}!',
	}),
	s2Reminder: template(S, {
		id: 'tpl_s2_reminder',
		name: 'appointment_reminder',
		type: 'UTILITY',
		message: 'Reminder: {{1}} at {{2}}.',
	}),
	s2Thanks: template(S, {
		id: 'tpl_s2_thanks',
		name: 'thanks',
		type: 'MARKETING',
		message: 'Thank you, {{1}}!',
	}),
} satisfies Record<string, Template>;

const T = TEMPLATES;

/** Templates by sender record id, in the order the listing answers them. */
export const SEED_TEMPLATES: Readonly<Record<number, readonly Template[]>> = {
	[P.id]: [
		T.bodyOnly,
		T.textHeader,
		T.documentHeader,
		T.imageHeader,
		T.videoHeader,
		T.urlButton,
		T.quickReplies,
		T.phoneButton,
		T.authCode,
		T.flow,
		T.mixedButtons,
		T.pending,
		T.rejected,
	],
	[S.id]: [T.s2Reminder, T.s2Thanks],
};

const SEED_TIME = '2024-01-15T09:00:00.000Z';

function contact(
	id: number,
	name: string,
	phone: string,
	email: string,
	groupIds: number[],
	accountId = ACCOUNT_ID,
): ContactRecord {
	return {
		id,
		account_id: accountId,
		name,
		phone_number: phone,
		email,
		group_ids: groupIds,
		custom_metadata: [],
		created_at: SEED_TIME,
		updated_at: SEED_TIME,
	};
}

export const CONTACTS = {
	amina: contact(1001, 'Amina Wanjiru', '+254711000001', 'amina@example.com', [1, 2]),
	brian: contact(1002, 'Brian Otieno', '+254711000002', '', [1]),
	cynthia: contact(1003, 'Cynthia Njeri', '+254711000003', 'cynthia@example.com', [3]),
	foreign: contact(9001, 'Other Account', '+254711009001', '', [], FOREIGN_ACCOUNT_ID),
} satisfies Record<string, ContactRecord>;

export const SEED_CONTACTS: readonly ContactRecord[] = [
	CONTACTS.amina,
	CONTACTS.brian,
	CONTACTS.cynthia,
	CONTACTS.foreign,
];

/** First id handed to a contact created at run time (above every seeded id of our account). */
export const FIRST_CREATED_CONTACT_ID = 1004;

const DAY_MS = 24 * 60 * 60 * 1000;
const GROUPS_EPOCH = Date.UTC(2024, 0, 1, 8, 0, 0);

/**
 * Groups 1..count. Every third has an empty description and every fourth is private, so clients
 * meet both shapes. total_contacts is 0 here; state.ts counts the members.
 */
export function seedGroups(count: number): Group[] {
	const groups: Group[] = [];
	for (let id = 1; id <= count; id++) {
		const created = new Date(GROUPS_EPOCH + (id - 1) * DAY_MS).toISOString();
		groups.push({
			id,
			account_id: ACCOUNT_ID,
			creator_id: CREATOR_ID,
			name: `Group ${id}`,
			description: id % 3 === 0 ? '' : `Customers of segment ${id}`,
			is_private: id % 4 === 0,
			total_contacts: 0,
			created_at: created,
			updated_at: created,
		});
	}
	return groups;
}

/**
 * A delivery report per row of docs/delivery-report-fields.md, shaped as that gateway documents
 * its callback (form fields as a form-encoded text, JSON as objects), with what the trigger must
 * read from it. Shared by the client test (gateway-reports.test.ts) and the end-to-end trigger test,
 * which posts each to real n8n.
 */
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

export interface Sample {
	post: unknown;
	read: Array<Record<string, unknown>>;
}

export const SAMPLES: Record<string, Sample[]> = {
	"Africa's Talking": [
		{
			post: form({
				id: 'ATXid_4b1f0c',
				status: 'Failed',
				phoneNumber: '+254711000001',
				networkCode: '63902',
				failureReason: 'AbsentSubscriber',
				retryCount: '0',
			}),
			read: [
				{
					messageId: 'ATXid_4b1f0c',
					status: 'Failed',
					outcome: 'failed',
					reason: 'AbsentSubscriber',
					number: '+254711000001',
					time: null,
				},
			],
		},
		{
			post: form({ id: 'ATXid_4b1f0d', status: 'Success', phoneNumber: '+254711000002' }),
			read: [{ messageId: 'ATXid_4b1f0d', outcome: 'delivered', reason: null }],
		},
	],
	Infobip: [
		{
			post: {
				results: [
					{
						bulkId: 'BULK-1',
						messageId: 'MSG-1',
						to: '41793026727',
						sentAt: '2019-11-09T16:00:00.000+0000',
						doneAt: '2019-11-09T16:00:05.000+0000',
						smsCount: 1,
						price: { pricePerMessage: 0.01, currency: 'EUR' },
						status: {
							groupId: 3,
							groupName: 'DELIVERED',
							id: 5,
							name: 'DELIVERED_TO_HANDSET',
							description: 'Message delivered to handset',
						},
						error: {
							groupId: 0,
							groupName: 'OK',
							id: 0,
							name: 'NO_ERROR',
							description: 'No Error',
						},
					},
					{
						messageId: 'MSG-2',
						to: '41793026728',
						doneAt: '2019-11-09T16:01:00.000+0000',
						status: { groupName: 'UNDELIVERABLE', name: 'UNDELIVERABLE_NOT_DELIVERED' },
						error: {
							groupName: 'HANDSET_ERRORS',
							name: 'EC_ABSENT_SUBSCRIBER',
							description: 'Absent Subscriber',
						},
					},
				],
			},
			read: [
				{
					messageId: 'MSG-1',
					status: 'DELIVERED_TO_HANDSET',
					outcome: 'delivered',
					reason: null,
					number: '41793026727',
					time: '2019-11-09T16:00:05.000Z',
				},
				{
					messageId: 'MSG-2',
					status: 'UNDELIVERABLE_NOT_DELIVERED',
					outcome: 'failed',
					reason: 'Absent Subscriber',
					time: '2019-11-09T16:01:00.000Z',
				},
			],
		},
	],
	Twilio: [
		{
			post: form({
				AccountSid: 'AC0000000000000000000000000000000a',
				MessageSid: 'SM0000000000000000000000000000000b',
				SmsSid: 'SM0000000000000000000000000000000b',
				MessageStatus: 'undelivered',
				SmsStatus: 'undelivered',
				To: '+15558675310',
				From: '+15017122661',
				ErrorCode: '30003',
				ApiVersion: '2010-04-01',
				RawDlrDoneDate: '2305301230',
			}),
			read: [
				{
					messageId: 'SM0000000000000000000000000000000b',
					status: 'undelivered',
					outcome: 'failed',
					reason: '30003',
					number: '+15558675310',
					time: null,
				},
			],
		},
	],
	Vonage: [
		{
			post: {
				msisdn: '447700900000',
				to: 'AcmeInc',
				'network-code': '12345',
				messageId: '0A0000001234567B',
				price: '0.03330000',
				status: 'delivered',
				scts: '2001011400',
				'err-code': '0',
				'message-timestamp': '2020-01-01 12:00:00',
			},
			read: [
				{
					messageId: '0A0000001234567B',
					status: 'delivered',
					outcome: 'delivered',
					reason: null,
					number: '447700900000',
					time: '2020-01-01T12:00:00.000Z',
				},
			],
		},
		{
			post: {
				msisdn: '447700900001',
				to: 'AcmeInc',
				messageId: '0A01',
				status: 'rejected',
				'err-code': '6',
			},
			read: [{ messageId: '0A01', outcome: 'failed', reason: '6', number: '447700900001' }],
		},
	],
	Routee: [
		{
			post: {
				messageId: '6ec2b1f6-4c4f-4a36-8e1f-000000000001',
				smsId: 'b7f0c7a3-0000-0000-0000-000000000001',
				to: '+306970000001',
				from: 'Routee',
				status: {
					name: 'Undelivered',
					reason: { detailedStatus: 'Unknown Number', description: 'The number does not exist' },
					updatedDate: '2016-05-11T11:18:25.000Z',
				},
				direction: 'Outbound',
				originatingService: 'Sms',
			},
			read: [
				{
					messageId: '6ec2b1f6-4c4f-4a36-8e1f-000000000001',
					status: 'Undelivered',
					outcome: 'failed',
					reason: 'The number does not exist',
					number: '+306970000001',
					time: '2016-05-11T11:18:25.000Z',
				},
			],
		},
	],
	'Tencent Cloud': [
		{
			post: [
				{
					user_receive_time: '2015-10-17 08:03:04',
					nationcode: '86',
					mobile: '13700000001',
					report_status: 'SUCCESS',
					errmsg: 'DELIVRD',
					description: 'The SMS message is successfully sent',
					sid: 'tc-sid-1',
				},
				{
					user_receive_time: '2015-10-17 08:04:00',
					nationcode: '86',
					mobile: '13700000002',
					report_status: 'FAIL',
					errmsg: 'MK:0001',
					description: 'The SMS message failed',
					sid: 'tc-sid-2',
				},
			],
			read: [
				{
					messageId: 'tc-sid-1',
					status: 'SUCCESS',
					outcome: 'delivered',
					reason: null,
					number: '+8613700000001',
					time: '2015-10-17T08:03:04.000Z',
				},
				{ messageId: 'tc-sid-2', status: 'FAIL', outcome: 'failed', reason: 'MK:0001' },
			],
		},
	],
	Plivo: [
		{
			post: form({
				MessageUUID: 'db3ce55a-7f1d-11e1-8ea7-1231380bc196',
				Status: 'undelivered',
				To: '14155551212',
				From: '14155550000',
				ErrorCode: '200',
				Units: '1',
			}),
			read: [
				{
					messageId: 'db3ce55a-7f1d-11e1-8ea7-1231380bc196',
					status: 'undelivered',
					outcome: 'failed',
					reason: '200',
					number: '14155551212',
				},
			],
		},
	],
	MessageBird: [
		{
			post: form({
				id: 'efa6405d518d4c0c88cce11f7db775fb',
				reference: 'order-12',
				recipient: '31612345678',
				status: 'delivery_failed',
				statusReason: 'unknown subscriber',
				statusErrorCode: '1',
				statusDatetime: '2017-09-01T10:00:05+00:00',
			}),
			read: [
				{
					messageId: 'efa6405d518d4c0c88cce11f7db775fb',
					status: 'delivery_failed',
					outcome: 'failed',
					reason: 'unknown subscriber',
					number: '31612345678',
					time: '2017-09-01T10:00:05.000Z',
				},
			],
		},
	],
	Gupshup: [
		{
			post: [
				{
					externalId: '3562707498794989059-328736121207676738',
					eventType: 'DELIVERED',
					eventTs: 1526347800000,
					destAddr: 919892488888,
					srcAddr: 'TESTIN',
					cause: 'SUCCESS',
					errCode: '000',
					channel: 'SMS',
					noOfFrags: 1,
				},
				{
					externalId: '3798318073013708082-252169030017029882',
					eventType: 'FAILED',
					eventTs: 1526347800000,
					destAddr: 91989237777,
					cause: 'UNKNOWN_SUBSCRIBER',
					errCode: '001',
				},
			],
			read: [
				{
					messageId: '3562707498794989059-328736121207676738',
					outcome: 'delivered',
					reason: null,
					number: '919892488888',
					time: '2018-05-15T01:30:00.000Z',
				},
				{ outcome: 'failed', reason: 'UNKNOWN_SUBSCRIBER', number: '91989237777' },
			],
		},
	],
	'SMPP / Kannel DLR': [
		{
			post: form({
				id: 'kannel-1',
				stat: 'UNDELIV',
				err: '001',
				msisdn: '+254711000003',
				done_date: '2026-11-25T08:00:00Z',
			}),
			read: [
				{
					messageId: 'kannel-1',
					status: 'UNDELIV',
					outcome: 'failed',
					reason: '001',
					number: '+254711000003',
					time: '2026-11-25T08:00:00.000Z',
				},
			],
		},
	],
};

/**
 * SMSLeopard's two hosts and the chat channel (docs/api.md), written once: the credential's
 * defaults, the client's and the credential Test's all come from here. No imports, so the
 * credential can load it without the client.
 */
export const DEFAULT_CHAT_URL = 'https://whatsapp.smsleopard.com';
export const DEFAULT_CONTACTS_URL = 'https://api.smsleopard.com';
export const DEFAULT_CHANNEL = 'whatsapp';

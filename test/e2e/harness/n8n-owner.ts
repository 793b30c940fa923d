// A fresh n8n asks for an owner account before anything else; these make one and sign in as it,
// for the editor (npm start, screenshots) and for tests of the REST API.
export interface Owner {
	email: string;
	firstName: string;
	lastName: string;
	password: string;
}

export const DEMO_OWNER: Owner = {
	email: 'demo@example.com',
	firstName: 'Demo',
	lastName: 'Marketer',
	password: 'SmsLeopard-demo-1',
};

export async function setUpOwner(url: string, owner: Owner = DEMO_OWNER): Promise<void> {
	const response = await fetch(`${url}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(owner),
	});
	if (!response.ok) {
		throw new Error(`owner setup failed: HTTP ${response.status} ${await response.text()}`);
	}
}

/** Signs in and returns the session cookie (the login field was renamed in n8n 1.x). */
export async function signIn(url: string, owner: Owner = DEMO_OWNER): Promise<string> {
	for (const login of [{ emailOrLdapLoginId: owner.email }, { email: owner.email }]) {
		const response = await fetch(`${url}/rest/login`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ ...login, password: owner.password }),
		});
		const cookie = response.headers.get('set-cookie');
		if (response.ok && cookie) return cookie.split(';')[0];
	}
	throw new Error(`could not sign in to n8n at ${url}`);
}

/** Options loaded from the account: the groups a new contact can join (every page). */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { clientForNode } from '../transport/client-for-node';

// Natural order: Group 2 before Group 10, as people count.
const NATURAL = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

export async function getGroups(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const client = await clientForNode(this);
	const groups = await client.getAllGroups({ per: 100 });
	// A group whose id the answer did not give usably cannot be joined: it is not offered.
	return groups
		.flatMap((group) =>
			typeof group.id === 'number'
				? [
						{
							name: group.name
								? `${group.name} (${group.total_contacts ?? 0} contacts)`
								: `Group ${group.id}`,
							value: group.id,
							description: group.description || undefined,
						},
					]
				: [],
		)
		.sort((a, b) => NATURAL.compare(a.name, b.name));
}

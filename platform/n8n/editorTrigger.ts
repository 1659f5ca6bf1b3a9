/**
 * Which trigger the editor's big "Execute workflow" button runs a workflow from, as n8n 2.41.1's
 * editor picks it (NodeView's default selected trigger): the first trigger that is not disabled,
 * by a ranking of trigger types (Form Trigger, then Webhook, then any trigger not among n8n's
 * core nodes, such as this package's Rate Record Trigger, then Schedule Trigger, then Manual
 * Trigger, Execute Workflow Trigger, Error Trigger, then other core triggers), nodes of one rank
 * in workflow order. Why a digest that shares its workflow with the Rate Record Trigger could not
 * be run from the big button: the Rate Record Trigger always ranks first.
 */

const RANK_BY_TYPE: Record<string, number> = {
	'n8n-nodes-base.formTrigger': 10,
	'n8n-nodes-base.webhook': 9,
	'n8n-nodes-base.scheduleTrigger': 7,
	'n8n-nodes-base.manualTrigger': 6,
	'n8n-nodes-base.workflowTrigger': 5,
	'n8n-nodes-base.errorTrigger': 4,
};

/** n8n's own nodes (the editor reads the "Core Nodes" codex category; a package prefix is what a workflow file holds). */
function isCore(type: string): boolean {
	return type.startsWith('n8n-nodes-base.') || type.startsWith('@n8n/');
}

function isTrigger(type: string): boolean {
	return /trigger$/i.test(type) || type === 'n8n-nodes-base.webhook';
}

export function editorTrigger(nodes: ReadonlyArray<{ name: string; type: string; disabled?: boolean }>): string | undefined {
	const rank = (type: string) => RANK_BY_TYPE[type] ?? (isCore(type) ? 0 : 8);
	return nodes
		.filter((node) => isTrigger(node.type))
		.sort((a, b) => rank(b.type) - rank(a.type))
		.find((node) => !node.disabled)?.name;
}

import type { INodeTypeDescription } from 'n8n-workflow';

/**
 * What n8n's AI Workflow Builder reads from a node's description to pick it and wire it: the
 * `searchHint` and `relatedNodes` of n8n-workflow's `IBuilderHint` (declared by the n8n-workflow
 * of n8n 2.41, not by the 2.8 this package compiles against). Typing the descriptions with the
 * field added lets them carry it under either: with newer types the two declarations intersect.
 * An n8n that does not know the field (2.8.4, 1.x) hands it to the editor like any other part of
 * the description, and nothing reads it.
 */
export interface BuilderHint {
	searchHint: string;
	relatedNodes?: Array<{ nodeType: string; relationHint: string }>;
}

export type NodeTypeDescriptionWithHint = INodeTypeDescription & { builderHint: BuilderHint };

/** The full type of one of this package's nodes, as the builder names nodes in `relatedNodes`. */
export function travelPricingNodeType(name: string): string {
	return `n8n-nodes-travel-pricing.${name}`;
}

import { NodeConnectionTypes, type IExecuteFunctions, type INodeExecutionData, type INodeType } from 'n8n-workflow';

import { travelPricingNodeType, type NodeTypeDescriptionWithHint } from '../shared/builderHint';
import { ACCESS_TOKEN_CREDENTIAL, ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME, N8N_API_CREDENTIAL, N8N_API_CREDENTIAL_DISPLAY_NAME } from '../shared/credentialNames';

import { SERVICE_DATA_OPERATIONS } from './actions/fields';
import { properties, route, subtitle } from './actions/router';

export class TravelPricingRateChanges implements INodeType {
	description: NodeTypeDescriptionWithHint = {
		displayName: 'Travel Pricing Rate Changes',
		name: 'travelPricingRateChanges',
		icon: { light: 'file:rateChanges.svg', dark: 'file:rateChanges.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle,
		description:
			"Alert on what changed since the last rate shop (up, down, sold out, back on sale) and sum it up in one digest per shop; a rate calendar of your hotel against its comp set, and suggested rates to approve; remembered in n8n's Data Tables",
		defaults: { name: 'Rate Changes' },
		builderHint: {
			searchHint: `Use for rate alerts from the rate records the Rate Record Trigger starts a workflow with: Detect Changes puts out only the stays whose rate moved since the last shop (up, down, sold out, back on sale), Compare With My Hotel the stay-nights where a competitor undercuts your hotel or your rank moved, Check Parity the websites selling your room below your own site; Digest, run every morning from a Schedule Trigger, sums up every alert not reported yet with a ready text (Slack, Teams) and HTML (email). Each alert comes out once. Rate Calendar, also from a Schedule Trigger, puts my hotel's rate against its comp set's median for each date of a window (price index, events near the hotel and demand with a ${ACCESS_TOKEN_CREDENTIAL_DISPLAY_NAME} credential, outliers, what moved since the last calendar) with a month grid in HTML and a text; Suggest Rates gives a rate for each date by the user's rules, with reasons, for a Send and Wait approval: it sets no price. Rate History shows how a stay date's rates moved shop day by shop day (mine, each competitor's, the comp median) and the booking-window curve of my index, from the history Detect Changes keeps with Keep History on. Keeps its memory in n8n's Data Tables through n8n's public API: needs the ${N8N_API_CREDENTIAL_DISPLAY_NAME} credential (an API key of this n8n) and n8n 2.8 or later.`,
			relatedNodes: [
				{ nodeType: travelPricingNodeType('travelPricingRateTrigger'), relationHint: 'Starts the workflow with the rate records Detect Changes, Compare With My Hotel and Check Parity read' },
				{ nodeType: 'n8n-nodes-base.scheduleTrigger', relationHint: 'Runs Digest every morning' },
				{ nodeType: 'n8n-nodes-base.slack', relationHint: "Posts an alert, or a digest's text" },
				{ nodeType: 'n8n-nodes-base.emailSend', relationHint: "Emails a digest's or a rate calendar's html, or asks for Suggest Rates' approval (Send and Wait for Response)" },
			],
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: N8N_API_CREDENTIAL, required: true },
			// Only Rate Calendar and Suggest Rates call the service (for events or demand). Shown by the
			// operation alone: n8n's panel hides every field that a field a credential's display depends
			// on depends on itself, so a condition on Service Data would hide the Operation field.
			{ name: ACCESS_TOKEN_CREDENTIAL, required: false, displayOptions: { show: { operation: SERVICE_DATA_OPERATIONS } } },
		],
		properties,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route(this);
	}
}

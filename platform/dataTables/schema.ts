/**
 * The part of JSON Schema that n8n's OpenAPI document uses for the Data Tables requests, checked
 * with the messages its validator (express-openapi-validator on Ajv) gives: the first failure, as
 * "request/body/data must NOT have fewer than 1 items". Ajv checks an object's `required` before
 * its `properties`, those in order.
 */
export interface Schema {
	type?: 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean';
	required?: string[];
	properties?: Record<string, Schema>;
	additionalProperties?: false;
	items?: Schema;
	minItems?: number;
	enum?: string[];
	minLength?: number;
	maxLength?: number;
	pattern?: string;
	minimum?: number;
	maximum?: number;
	anyOf?: Schema[];
}

function typeMatches(type: NonNullable<Schema['type']>, value: unknown): boolean {
	switch (type) {
		case 'object':
			return typeof value === 'object' && value !== null && !Array.isArray(value);
		case 'array':
			return Array.isArray(value);
		case 'integer':
			return Number.isInteger(value);
		default:
			return typeof value === type;
	}
}

/** The first message for `value` against `schema`, or undefined when it passes. `path` is like "request/body". */
export function schemaIssue(schema: Schema, value: unknown, path: string): string | undefined {
	if (schema.type && !typeMatches(schema.type, value)) return `${path} must be ${schema.type}`;
	if (schema.anyOf) {
		const issues = schema.anyOf.map((option) => schemaIssue(option, value, path));
		if (issues.every(Boolean)) return [...issues, `${path} must match a schema in anyOf`].join(', ');
	}
	if (typeof value === 'string') {
		if (schema.maxLength !== undefined && [...value].length > schema.maxLength) return `${path} must NOT have more than ${schema.maxLength} characters`;
		if (schema.minLength !== undefined && [...value].length < schema.minLength) return `${path} must NOT have fewer than ${schema.minLength} characters`;
		if (schema.pattern && !new RegExp(schema.pattern, 'u').test(value)) return `${path} must match pattern "${schema.pattern}"`;
	}
	if (typeof value === 'number') {
		if (schema.maximum !== undefined && value > schema.maximum) return `${path} must be <= ${schema.maximum}`;
		if (schema.minimum !== undefined && value < schema.minimum) return `${path} must be >= ${schema.minimum}`;
	}
	if (schema.enum && !schema.enum.includes(value as string)) return `${path} must be equal to one of the allowed values: ${schema.enum.join(', ')}`;
	if (Array.isArray(value)) {
		if (schema.minItems !== undefined && value.length < schema.minItems) return `${path} must NOT have fewer than ${schema.minItems} items`;
		if (schema.items) {
			for (const [index, item] of value.entries()) {
				const issue = schemaIssue(schema.items, item, `${path}/${index}`);
				if (issue) return issue;
			}
		}
	}
	if (typeMatches('object', value)) {
		const record = value as Record<string, unknown>;
		const missing = schema.required?.find((key) => !(key in record));
		if (missing) return `${path} must have required property '${missing}'`;
		if (schema.additionalProperties === false && Object.keys(record).some((key) => !(key in (schema.properties ?? {})))) {
			return `${path} must NOT have additional properties`;
		}
		for (const [key, property] of Object.entries(schema.properties ?? {})) {
			if (!(key in record)) continue;
			const issue = schemaIssue(property, record[key], `${path}/${key}`);
			if (issue) return issue;
		}
	}
	return undefined;
}

/**
 * describe.each over n8n versions, one describe per version with %s in its title replaced by the
 * version, where the list may be empty: describe.each refuses an empty table, and a suite kept to
 * the versions with (or without) Data Tables has none on some runs.
 */
export function describeVersions(versions: readonly string[], title: string, body: (version: string) => void): void {
	for (const version of versions) describe(title.replace('%s', version), () => body(version));
}

/**
 * A website as a person reads it: by name, with the code beside it ("hotels.com (4)"), the code
 * being what the records, the node's fields and the service's schedules use.
 */

/**
 * The website's name from a rate record's `sourceUrl` (spec part 6): its host, without `www.`
 * ("https://www.hotels.com/ho-123" is hotels.com). '' when the record has no address to read.
 */
export function websiteNameOf(sourceUrl: unknown): string {
	if (typeof sourceUrl !== 'string' || sourceUrl.trim() === '') return '';
	const text = sourceUrl.trim();
	try {
		// An address without a scheme ("www.hotels.com/ho-123") is read as one with https.
		const host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`).hostname.toLowerCase();
		return host.replace(/^www\./, '');
	} catch {
		return '';
	}
}

/** "hotels.com (4)"; "website 4" when no name is known. */
export function websiteLabel(websiteCode: number, websiteName: string | undefined): string {
	return websiteName ? `${websiteName} (${websiteCode})` : `website ${websiteCode}`;
}

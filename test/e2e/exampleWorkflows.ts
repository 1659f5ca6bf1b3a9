/** The shipped Rate Changes examples the e2e suites import: the file under examples/ and the workflow ID it is imported under. */
export const RATE_ALERTS = { file: 'rate-change-alerts.json', id: 'exRateChanges001' };
export const RATE_DIGEST = { file: 'rate-change-digest.json', id: 'exRateDigest0001' };
export const UNDERCUT_ALERTS = { file: 'undercut-parity-alerts.json', id: 'exStanding000001' };
export const UNDERCUT_DIGEST = { file: 'undercut-parity-digest.json', id: 'exStandingDigest' };

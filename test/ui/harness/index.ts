export { ensureChromium, launchChromium } from './browser';
export { Editor, SCREENSHOT_DIR, type BrowserProblem } from './editor';
export { eventually } from './eventually';

import { stopEngine } from './engine';

afterAll(async () => {
	await stopEngine();
});

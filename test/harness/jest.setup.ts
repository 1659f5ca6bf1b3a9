import { stopEngine } from '../../platform/engine/engine';

afterAll(async () => {
	await stopEngine();
});

export { QueueProcess, RECOMMENDED_POOL_SIZE, startQueueCluster, type QueueCluster, type QueueClusterOptions, type StoredExecution } from './cluster';
export { ensureQueueServices, startPostgres, startRedis, type ServiceProcess } from './services';

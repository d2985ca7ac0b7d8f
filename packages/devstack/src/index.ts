export { startEmbeddedPostgres, databaseUrl, type RunningPostgres } from './postgres.ts';
export { startTemporalDevServer, type RunningTemporal, type SearchAttributeType, type TemporalDevServerOptions } from './temporal.ts';
export { findTemporalCli, temporalCliPath, cliCacheDir, MISSING_TEMPORAL_HELP } from './temporal-cli.ts';
export { runs, signalGroup, stopProcessGroup } from './process-group.ts';
export { freePort } from './ports.ts';
export { findS3Server, startS3Server, VERSITYGW_MODULE, type RunningS3 } from './s3-server.ts';

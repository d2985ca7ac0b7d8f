export { startEmbeddedPostgres, databaseUrl, type RunningPostgres } from './postgres.ts';
export { startTemporalDevServer, type RunningTemporal } from './temporal.ts';
export { findTemporalCli, cliCacheDir, MISSING_TEMPORAL_HELP } from './temporal-cli.ts';
export { freePort } from './ports.ts';
export { findS3Server, startS3Server, VERSITYGW_MODULE, type RunningS3 } from './s3-server.ts';

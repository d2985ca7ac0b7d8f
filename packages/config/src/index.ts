import { existsSync, readFileSync } from 'node:fs';
import { parse as parseDotenv } from 'dotenv';
import { z } from 'zod';

const flag = (fallback: boolean) =>
  z.enum(['true', 'false', '1', '0']).optional().transform((v) => (v === undefined ? fallback : v === 'true' || v === '1'));
const int = (fallback: number) => z.coerce.number().int().min(0).default(fallback);
const optional = z.string().min(1).optional();
/** 32 bytes, base64: an AES-256 key. */
const payloadKey = z.base64('32 random bytes, base64').refine((v) => Buffer.from(v, 'base64').length === 32, '32 random bytes, base64').optional();
/** A comma-separated list of milliseconds, e.g. `30000,120000`. */
const msList = (fallback: number[]) =>
  z.string().regex(/^\s*\d+(\s*,\s*\d+)*\s*$/, 'a comma-separated list of milliseconds').optional()
    .transform((v) => (v === undefined ? fallback : v.split(',').map((n) => Number(n.trim()))));

/**
 * Every environment variable the service reads, parsed once per process.
 * `.env.example` lists the same names; nothing else reads `process.env`.
 */
const Env = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  // Unset: the dev launcher runs embedded PostgreSQL and Temporal and fills these in.
  DATABASE_URL: optional,
  TEMPORAL_ADDRESS: optional,
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE_PREFIX: z.string().default(''),
  TEMPORAL_CLI_PATH: optional,
  // How long a caller waits for a production's answer to greenlight, comment, decline or cancel;
  // past it the caller is told to read the production before trying again (503).
  TEMPORAL_UPDATE_DEADLINE_MS: z.coerce.number().int().min(100).default(20_000),
  DATA_DIR: z.string().default('.data'),
  // Ports of the embedded services `pnpm dev` runs.
  DEV_POSTGRES_PORT: int(54329),
  DEV_TEMPORAL_PORT: int(7233),
  DEV_TEMPORAL_UI_PORT: int(8233),

  // Loopback unless told: a deployment (compose sets 0.0.0.0 in its containers) opts in to more.
  HOST: z.string().default('127.0.0.1'),
  PORT: int(3000),
  BASE_URL: z.url().optional(),
  // The app (services/app): its port, and where people reach it (every link sent begins with it).
  APP_PORT: int(3001),
  APP_URL: z.url().optional(),
  // Who may sign up in the app: anyone with an e-mail address (`open`), or only invited addresses.
  SIGNUP: z.enum(['open', 'invite']).default('open'),
  BODY_LIMIT_BYTES: int(1024 * 1024),
  // POST /v1/productions: the spec allows 40 code files of 200 000 characters, ~9 MB of JSON.
  BRIEF_BODY_LIMIT_BYTES: int(32 * 1024 * 1024),
  // A request body from which nothing arrives for this long is answered 408 and its connection closed.
  BODY_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
  // Behind load balancers: how many append to X-Forwarded-For (`true` is one), so the client's
  // address for rate limits is read that many entries from the right.
  TRUST_PROXY: z.string().regex(/^(true|false|\d+)$/, '`true`, `false` or a number of proxies').optional()
    .transform((v) => (v === undefined || v === 'false' ? 0 : v === 'true' ? 1 : Number(v))),

  // Server switches (spec: 503 `disabled`).
  PITCHES_ENABLED: flag(true),
  WEBHOOKS_ENABLED: flag(true),
  LINKS_ENABLED: flag(true),
  // Development only: allow webhook endpoints and media on private and loopback addresses.
  ALLOW_PRIVATE_URLS: flag(false),
  // Development and tests only: the built-in development secrets stand in for unset ones.
  ALLOW_DEV_SECRETS: flag(false),

  // Signing and encryption keys: required (`pnpm dev` generates its own), never the built-in ones
  // unless ALLOW_DEV_SECRETS=true.
  LINK_SIGNING_SECRET: z.string().min(32).optional(),
  // While rotating LINK_SIGNING_SECRET: the one before, still accepted, so that links already
  // sent keep working; drop it once they have expired (7 days).
  LINK_SIGNING_SECRET_PREVIOUS: z.string().min(32).optional(),
  URL_SIGNING_SECRET: z.string().min(32).optional(),
  WEBHOOK_SECRET_KEY: z.string().min(32).optional(),
  // While rotating WEBHOOK_SECRET_KEY: the one before, which still opens the endpoint secrets it
  // sealed; drop it once `pnpm admin webhooks reseal` has sealed them all with the new one.
  WEBHOOK_SECRET_KEY_PREVIOUS: z.string().min(32).optional(),
  // The key that encrypts every Temporal payload (AES-256: 32 random bytes, base64), and while
  // rotating it the one before, which still opens what it sealed.
  TEMPORAL_PAYLOAD_KEY: payloadKey,
  TEMPORAL_PAYLOAD_KEY_PREVIOUS: payloadKey,
  // The Temporal Web UI reads payloads through the gateway's codec endpoint,
  // {BASE_URL}/codec/<TEMPORAL_CODEC_TOKEN> (unset: no endpoint). Only the UI's own page
  // (TEMPORAL_UI_ORIGIN) may call it from a browser.
  TEMPORAL_CODEC_TOKEN: z.string().min(32).optional(),
  TEMPORAL_UI_ORIGIN: z.url().default('http://127.0.0.1:8233'),

  // The pitch writer: the built-in one, or any OpenAI-compatible chat-completions endpoint.
  PITCH_WRITER: z.enum(['builtin', 'openai']).default('builtin'),
  PITCH_WRITER_URL: z.url().optional(),
  PITCH_WRITER_MODEL: z.string().optional(),
  PITCH_WRITER_API_KEY: z.string().optional(),
  PITCH_WRITER_TIMEOUT_MS: int(60_000),

  // Workers: concurrency, and how long a database step may run before it is retried.
  WORKER_MAX_CONCURRENT_ACTIVITIES: int(20),
  PRODUCTION_STEP_TIMEOUT_MS: int(30_000),
  // Workers write the time here every 10 s while Temporal and PostgreSQL answer them: a container's
  // health check reads its age (docker-compose.yml). Unset: no heartbeat.
  HEALTH_FILE: optional,

  // Webhook deliveries: attempt at once, then retry after each delay; 15 s to answer; an endpoint is
  // switched off after this many failures in a row when none has succeeded for this long.
  WEBHOOK_RETRY_SCHEDULE_MS: msList([30_000, 120_000, 600_000, 3_600_000, 21_600_000]),
  WEBHOOK_TIMEOUT_MS: int(15_000),
  WEBHOOK_DISABLE_AFTER_FAILURES: int(10),
  WEBHOOK_DISABLE_AFTER_MS: int(24 * 60 * 60 * 1000),
  // The outbox sweep: starts the deliveries no workflow took within this long (0: no sweep).
  WEBHOOK_SWEEP_INTERVAL_MS: int(60_000),
  // Days of delivery log kept (ended deliveries and their events; 0: kept for good).
  WEBHOOK_RETENTION_DAYS: int(30),

  // The device flow (spec: Other limits): a request waits 10 minutes for its answer, an approved key
  // 10 more for its claim, and a claimed key may be revoked by its poller 15 minutes after that.
  KEY_REQUEST_TTL_MS: int(600_000),
  KEY_CLAIM_WINDOW_MS: int(600_000),
  KEY_REVOKE_GRACE_MS: int(900_000),

  // E-mail (greenlight links to owners and editors): SMTP when set, else files under DATA_DIR/outbox.
  SMTP_URL: optional,
  MAIL_FROM: z.string().min(3).default('Video Production Service <no-reply@localhost>'),

  // Blob store (videos, posters, uploaded images): a folder under DATA_DIR, or any S3-compatible store.
  BLOB_STORE: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z.url().optional(),
  S3_BUCKET: optional,
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: optional,
  S3_SECRET_ACCESS_KEY: optional,
  // Most self-hosted stores (MinIO, Ceph, versitygw) want bucket names in the path, not the host.
  S3_FORCE_PATH_STYLE: flag(false),

  // The render farm: renders at once per render worker (one per 2 cores), how long a render may go
  // without a heartbeat before it is retried on another worker, the renders API's wait budget and body limit.
  RENDER_CONCURRENCY: z.coerce.number().int().min(1).default(1),
  RENDER_HEARTBEAT_TIMEOUT_MS: z.coerce.number().int().min(1000).default(120_000),
  // A render that reports no phase or progress this long has hung (a child process that never ends):
  // its try is stopped and retried. Longer than any legitimate silence: a media download gives up
  // after 120 s, and mixing or reviewing even a long video takes seconds.
  RENDER_STALL_MS: z.coerce.number().int().min(1000).default(300_000),
  // A render worker told to stop lets its renders finish for this long (a cancelled one costs a try).
  RENDER_SHUTDOWN_GRACE_MS: int(300_000),
  RENDER_WAIT_MS: int(90_000),
  RENDER_BODY_LIMIT_BYTES: int(110 * 1024 * 1024),
});

export type Config = ReturnType<typeof loadConfig>;

/** The names of every variable the service reads (`.env.example` lists the same). */
export const ENV_NAMES = Object.keys(Env.shape);

/**
 * The built-in development secrets: stand-ins for unset secrets where ALLOW_DEV_SECRETS=true
 * (tests, a quick try), refused everywhere else. The payload key's bytes spell one out too.
 */
export const DEV_SECRETS = {
  LINK_SIGNING_SECRET: 'dev-link-signing-secret-change-me-please-0000',
  URL_SIGNING_SECRET: 'dev-url-signing-secret-change-me-please-00000',
  WEBHOOK_SECRET_KEY: 'dev-webhook-secret-key-change-me-please-00000',
  TEMPORAL_PAYLOAD_KEY: Buffer.from('dev-payload-key-change-me-please').toString('base64'),
} as const;
type SecretName = keyof typeof DEV_SECRETS;
/** The secrets every process needs, each with the one before it while it is rotated. */
export const SECRET_NAMES = Object.keys(DEV_SECRETS) as SecretName[];
const PREVIOUS = ['LINK_SIGNING_SECRET_PREVIOUS', 'WEBHOOK_SECRET_KEY_PREVIOUS', 'TEMPORAL_PAYLOAD_KEY_PREVIOUS'] as const;

const DEV_SECRET = /^dev-.*-change-me-please/;
const isDevSecret = (value: string) => DEV_SECRET.test(value) || DEV_SECRET.test(Buffer.from(value, 'base64').toString('latin1'));

export function loadConfig(env: Record<string, string | undefined> = process.env) {
  // An empty variable is an unset one: docker compose passes `${VAR:-}` as ''.
  const parsed = Env.safeParse(Object.fromEntries(Object.entries(env).filter(([, value]) => value !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production') {
    // Switches for a developer's machine; a deployment that kept one would trust what it must not.
    const unsafe = (['ALLOW_DEV_SECRETS', 'ALLOW_PRIVATE_URLS'] as const).filter((name) => e[name]);
    if (unsafe.length) throw new Error(`Invalid environment: ${unsafe.map((name) => `${name}=true`).join(' and ')} cannot be used in production`);
  }
  const secrets = requireSecrets(e);
  if (e.NODE_ENV === 'production') {
    // Every link in e-mails and webhook payloads starts with one of them: localhost would reach no one.
    if (!e.BASE_URL) throw new Error('Invalid environment: set BASE_URL in production (where the API is reached)');
    if (!e.APP_URL) throw new Error('Invalid environment: set APP_URL in production (where the app is reached)');
  }
  // Links in e-mails and webhooks point here: by default, this process's own port.
  const baseUrl = e.BASE_URL ?? `http://localhost:${e.PORT}`;
  return {
    env: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    databaseUrl: e.DATABASE_URL,
    temporal: {
      address: e.TEMPORAL_ADDRESS,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueuePrefix: e.TEMPORAL_TASK_QUEUE_PREFIX,
      cliPath: e.TEMPORAL_CLI_PATH,
      updateDeadlineMs: e.TEMPORAL_UPDATE_DEADLINE_MS,
      payloadKey: Buffer.from(secrets.TEMPORAL_PAYLOAD_KEY, 'base64'),
      previousPayloadKey: e.TEMPORAL_PAYLOAD_KEY_PREVIOUS ? Buffer.from(e.TEMPORAL_PAYLOAD_KEY_PREVIOUS, 'base64') : null,
      codec: { token: e.TEMPORAL_CODEC_TOKEN ?? null, uiOrigin: e.TEMPORAL_UI_ORIGIN.replace(/\/$/, '') },
    },
    dataDir: e.DATA_DIR,
    devStack: { postgresPort: e.DEV_POSTGRES_PORT, temporalPort: e.DEV_TEMPORAL_PORT, temporalUiPort: e.DEV_TEMPORAL_UI_PORT },
    allowPrivateUrls: e.ALLOW_PRIVATE_URLS,
    http: { host: e.HOST, port: e.PORT, bodyLimitBytes: e.BODY_LIMIT_BYTES, briefBodyLimitBytes: e.BRIEF_BODY_LIMIT_BYTES, bodyIdleTimeoutMs: e.BODY_IDLE_TIMEOUT_MS, trustedProxies: e.TRUST_PROXY },
    baseUrl: baseUrl.replace(/\/$/, ''),
    // The app's own address by default: its pages, and links in e-mails and webhook payloads.
    appUrl: (e.APP_URL ?? `http://localhost:${e.APP_PORT}`).replace(/\/$/, ''),
    app: { port: e.APP_PORT, signup: e.SIGNUP },
    switches: { pitches: e.PITCHES_ENABLED, webhooks: e.WEBHOOKS_ENABLED, links: e.LINKS_ENABLED },
    pitchWriter:
      e.PITCH_WRITER === 'openai'
        ? { kind: 'openai' as const, baseUrl: required(e.PITCH_WRITER_URL, 'PITCH_WRITER_URL'), model: required(e.PITCH_WRITER_MODEL, 'PITCH_WRITER_MODEL'), apiKey: e.PITCH_WRITER_API_KEY ?? '', timeoutMs: e.PITCH_WRITER_TIMEOUT_MS }
        : { kind: 'builtin' as const },
    worker: { maxConcurrentActivities: e.WORKER_MAX_CONCURRENT_ACTIVITIES, stepTimeoutMs: e.PRODUCTION_STEP_TIMEOUT_MS, healthFile: e.HEALTH_FILE ?? null },
    secrets: { links: secrets.LINK_SIGNING_SECRET, previousLinks: e.LINK_SIGNING_SECRET_PREVIOUS ?? null, urls: secrets.URL_SIGNING_SECRET, webhookKey: secrets.WEBHOOK_SECRET_KEY, previousWebhookKey: e.WEBHOOK_SECRET_KEY_PREVIOUS ?? null },
    webhooks: {
      retryScheduleMs: e.WEBHOOK_RETRY_SCHEDULE_MS,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      disableAfterFailures: e.WEBHOOK_DISABLE_AFTER_FAILURES,
      disableAfterMs: e.WEBHOOK_DISABLE_AFTER_MS,
      sweepIntervalMs: e.WEBHOOK_SWEEP_INTERVAL_MS,
      retentionMs: e.WEBHOOK_RETENTION_DAYS * 24 * 60 * 60 * 1000,
    },
    keyRequests: { pendingMs: e.KEY_REQUEST_TTL_MS, claimWindowMs: e.KEY_CLAIM_WINDOW_MS, revokeGraceMs: e.KEY_REVOKE_GRACE_MS },
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM, outboxDir: `${e.DATA_DIR.replace(/\/$/, '')}/outbox` },
    blobs:
      e.BLOB_STORE === 's3'
        ? {
          kind: 's3' as const,
          endpoint: e.S3_ENDPOINT,
          bucket: requiredFor(e.S3_BUCKET, 'S3_BUCKET', 'BLOB_STORE=s3'),
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
        }
        : { kind: 'local' as const, dir: `${e.DATA_DIR.replace(/\/$/, '')}/blobs` },
    render: {
      concurrency: e.RENDER_CONCURRENCY,
      heartbeatTimeoutMs: e.RENDER_HEARTBEAT_TIMEOUT_MS,
      stallMs: e.RENDER_STALL_MS,
      shutdownGraceMs: e.RENDER_SHUTDOWN_GRACE_MS,
      workDir: `${e.DATA_DIR.replace(/\/$/, '')}/render-work`,
      waitMs: e.RENDER_WAIT_MS,
      bodyLimitBytes: e.RENDER_BODY_LIMIT_BYTES,
    },
  };
}

/**
 * Every secret, set and not a built-in development one; with ALLOW_DEV_SECRETS=true an unset one
 * is the built-in one. Refuses, naming them, the secrets missing or built-in otherwise.
 */
function requireSecrets(e: z.infer<typeof Env>): Record<SecretName, string> {
  const secrets = Object.fromEntries(SECRET_NAMES.map((name) => [name, e[name] ?? (e.ALLOW_DEV_SECRETS ? DEV_SECRETS[name] : undefined)]));
  const refused = [...SECRET_NAMES, ...PREVIOUS].filter((name) => {
    const value = name in secrets ? secrets[name] : e[name];
    if (value === undefined) return name in secrets;
    return isDevSecret(value) && !e.ALLOW_DEV_SECRETS;
  });
  if (refused.length) {
    const where = e.NODE_ENV === 'production' ? ' in production' : ' (`pnpm dev` generates its own; ALLOW_DEV_SECRETS=true accepts the built-in development ones outside production)';
    throw new Error(`Invalid environment: set ${refused.join(', ')}${where}`);
  }
  return secrets as Record<SecretName, string>;
}

function requiredFor(value: string | undefined, name: string, when: string): string {
  if (!value) throw new Error(`Invalid environment:\n  ${name}: required when ${when}`);
  return value;
}

function required(value: string | undefined, name: string): string {
  if (!value) throw new Error(`Invalid environment:\n  ${name}: required when PITCH_WRITER=openai`);
  return value;
}

/** For processes that cannot run without a database (everything but the dev launcher). */
export function requireDatabaseUrl(config: Config): string {
  if (!config.databaseUrl) throw new Error('DATABASE_URL is not set (run `pnpm dev` to start embedded services)');
  return config.databaseUrl;
}

/** The dev stack's data folder (DATA_DIR, `.data` by default), before the rest is parsed. */
export function devDataDir(env: Record<string, string | undefined> = process.env): string {
  return Env.shape.DATA_DIR.parse(env.DATA_DIR || undefined);
}

/** The environment, with the dev stack's secrets (`secrets.env` in its data folder) filled in where unset. */
export function devStackEnv(dataDir: string, env: Record<string, string | undefined> = process.env): Record<string, string | undefined> {
  return withFiles([`${dataDir}/secrets.env`], env);
}

/**
 * For tools working against the running dev stack (`pnpm admin`): with DATABASE_URL unset, the
 * environment with the dev stack's files filled in, its secrets and `dev.env` (`DATABASE_URL=…`,
 * `TEMPORAL_ADDRESS=…`, written while it runs). Variables already set win; missing files change nothing.
 */
export function loadDevEnv(dataDir: string, env: Record<string, string | undefined> = process.env): Record<string, string | undefined> {
  if (env.DATABASE_URL) return env;
  return withFiles([`${dataDir}/secrets.env`, `${dataDir}/dev.env`], env);
}

function withFiles(paths: string[], env: Record<string, string | undefined>): Record<string, string | undefined> {
  const set = Object.entries(env).filter(([, value]) => value !== undefined && value !== '');
  const files = paths.filter((path) => existsSync(path)).map((path) => parseDotenv(readFileSync(path)));
  return Object.assign({}, ...files, Object.fromEntries(set));
}

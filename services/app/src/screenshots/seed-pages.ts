import { randomUUID } from 'node:crypto';
import type { Db } from '@vp/db';

/** A pitch as the writer makes one: what the production page shows, shot by shot. */
const PITCH = {
  version: 1, verdict: 'video', verdictReason: null, title: 'Exports, twice as fast', estimatedCredits: 12,
  summary: 'A 12-second changelog spot: the export dialog, the new progress bar racing to the end, and the finished file.',
  music: 'Upbeat synth pop, 120 bpm', createdAt: new Date().toISOString(),
  shots: [
    { index: 0, title: 'The old wait', durationMs: 3000, beat: null, visual: 'The export dialog with a slow, crawling progress bar.', text: 'Exports used to take a while…', voiceover: 'Remember waiting for exports?', mediaIds: [], codePaths: [] },
    { index: 1, title: 'Release 2.4', durationMs: 5000, beat: null, visual: 'The bar now races to the end; a stopwatch shows half the time.', text: '2× faster exports', voiceover: 'Release 2.4 exports twice as fast, on the render farm.', mediaIds: [], codePaths: ['src/export/queue.ts'] },
    { index: 2, title: 'Get it now', durationMs: 4000, beat: null, visual: 'The finished video file, the Acme logo.', text: 'Update today', voiceover: 'Update today.', mediaIds: [], codePaths: [] },
  ],
};

/** A production waiting for its pitch to be answered, with its timeline: the production page as most people see it. */
export async function seedPitchedProduction(db: Db, input: { workspaceId: string; ownerId: string; ownerName: string }) {
  const id = randomUUID();
  await db.production.create({
    data: {
      id, workspaceId: input.workspaceId, createdBy: input.ownerId, stage: 'pitch_ready', sourceKind: 'app', greenlightMode: 'manual', pitchVersion: 1,
      brief: { intent: 'Show off the faster exports in 2.4', context: 'Exports moved to the render farm; p50 export time halved.', format: { durationMs: 12_000 }, brand: { name: 'Acme', tone: 'Warm, precise' } },
    },
  });
  await db.pitchVersion.create({ data: { productionId: id, version: 1, workspaceId: input.workspaceId, pitch: PITCH } });
  const events = [
    { kind: 'created', actor: `user:${input.ownerId}`, actorName: input.ownerName, payload: { stage: 'queued' } },
    { kind: 'stage', actor: 'system', actorName: 'Video Production Service', payload: { stage: 'writing_pitch' } },
    { kind: 'pitch', actor: 'system', actorName: 'Video Production Service', payload: { stage: 'pitch_ready', version: 1 } },
  ];
  for (const [i, event] of events.entries()) {
    await db.productionEvent.create({ data: { id: randomUUID(), productionId: id, stepKey: `${id}:seed:${i}`, ...event, createdAt: new Date(Date.now() - (3 - i) * 60_000) } });
  }
  return id;
}

/** An endpoint with a few deliveries: the webhook pages. */
export async function seedEndpoint(db: Db, workspaceId: string) {
  const id = randomUUID();
  await db.webhookEndpoint.create({
    data: { id, workspaceId, url: 'https://hooks.acme.example/video', description: 'Release bot', events: ['production.pitch_ready', 'production.delivered', 'production.failed'], secretEncrypted: 'demo', enabled: true, lastAttemptAt: new Date(), lastSuccessAt: new Date() },
  });
  const answers = [
    { type: 'ping', status: 'succeeded', attempts: 1, lastResponseStatus: 200, lastResponseBody: '{"ok":true}', lastError: null },
    { type: 'production.pitch_ready', status: 'succeeded', attempts: 2, lastResponseStatus: 200, lastResponseBody: 'accepted', lastError: null },
    { type: 'production.delivered', status: 'exhausted', attempts: 8, lastResponseStatus: 502, lastResponseBody: '<html>Bad gateway</html>', lastError: 'The endpoint answered 502.' },
  ] as const;
  for (const answer of answers) {
    const eventId = randomUUID();
    const { type, ...delivery } = answer;
    await db.webhookEvent.create({ data: { id: eventId, workspaceId, type, data: {} } });
    await db.webhookDelivery.create({ data: { id: randomUUID(), eventId, endpointId: id, ...delivery, lastAttemptAt: new Date() } });
  }
  return id;
}

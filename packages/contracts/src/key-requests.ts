import { z } from 'zod';
import { StorableText } from './text.ts';

/** Spec: "Device key request" states. */
export const KEY_REQUEST_STATUSES = ['pending', 'approved', 'claimed', 'denied', 'expired'] as const;
export const KeyRequestStatus = z.enum(KEY_REQUEST_STATUSES).meta({ id: 'KeyRequestStatus' });

/** POST /v1/keys/request. DECISIONS: `name` 1 to 100 characters; the key is named after it. */
export const KeyRequestBody = z.object({
  name: StorableText.trim().min(1).max(100).meta({ description: 'Who is asking (a tool and where it runs, say); the key is named after it. 1 to 100 characters.' }),
}).meta({ id: 'KeyRequestBody' });

export const KeyRequestStarted = z.object({
  deviceCode: z.string().meta({ description: 'The tool\'s secret for polling (32 random bytes, base64url). Keep it; it is not shown again.' }),
  userCode: z.string().regex(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/).meta({ description: 'The code a person confirms on the approval page, `XXXX-XXXX` (any case, with or without the hyphen, is accepted).' }),
  approvalUrl: z.url().meta({ description: '`{app_url}/keys/approve?code=<userCode>`: show it to the person who approves.' }),
  expiresInSeconds: z.number().int().meta({ description: 'How long the request waits for an answer (600).' }),
  pollIntervalSeconds: z.number().int().meta({ description: 'Poll no more often than this (3).' }),
}).meta({ id: 'KeyRequestStarted' });

/** POST /v1/keys/poll. */
export const KeyPollBody = z.object({
  deviceCode: z.string().min(1).max(200).meta({ description: 'The `deviceCode` of the request.' }),
  revokeClaimed: z.boolean().optional().meta({ description: 'Revoke the key this request gave (status `claimed`): honoured until 15 minutes after the claim window (the 10 minutes after approval) ends; the answer is then `expired`.' }),
}).meta({ id: 'KeyPollBody' });

export const KeyPollResponse = z.object({
  status: KeyRequestStatus,
  apiKey: z.string().optional().meta({ description: 'The key (`svc_live_…`, all four scopes): only on the single `approved` answer, the first poll after approval.' }),
}).meta({ id: 'KeyPollResponse' });

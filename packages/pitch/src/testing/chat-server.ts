import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ChatRequest = { method: string; path: string; headers: IncomingHttpHeaders; body: ChatRequestBody };
export type ChatRequestBody = {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: { type: string };
};
/** `after`: nothing is answered until it settles (a server that holds its answer until told). */
export type ChatReply = { status?: number; headers?: Record<string, string>; json?: unknown; text?: string; delayMs?: number; after?: Promise<unknown> };

/** A chat-completions answer whose message content is `content`. */
export function completion(content: string): ChatReply {
  return {
    json: {
      id: 'chatcmpl-test', object: 'chat.completion', created: 0, model: 'test-model',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    },
  };
}

/**
 * A real HTTP server on 127.0.0.1 that speaks the chat-completions protocol: each request is
 * recorded and answered by `reply`, called with the request and its 1-based number.
 */
export async function startChatServer(reply: (request: ChatRequest, n: number) => ChatReply) {
  const requests: ChatRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ChatRequest = {
        method: req.method ?? '', path: req.url ?? '', headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequestBody,
      };
      requests.push(request);
      const answer = reply(request, requests.length);
      const send = () => {
        if (res.destroyed) return;
        const body = answer.json !== undefined ? JSON.stringify(answer.json) : answer.text ?? '';
        res.writeHead(answer.status ?? 200, { 'content-type': answer.json !== undefined ? 'application/json' : 'text/plain', ...answer.headers });
        res.end(body);
      };
      if (answer.after) void answer.after.finally(send);
      else if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

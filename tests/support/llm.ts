import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { catalogLocales } from '@/shared/locales';

export interface ChatRequest {
  authorization: string | undefined;
  model: string;
  system: string;
  user: string;
}

/**
 * A real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions protocol deterministically:
 * a title request (a JSON array of { id, title, languages }) gets "<title> [<language>]" for each
 * language asked; a story request (the facts as a JSON object) gets "Story (<language>) of <title>."
 * for each catalog language. `failWith` answers like an outage; `delayMs` like a slow model; `gate`
 * holds every answer until it resolves (a model that answers exactly when the test says so).
 * `received()` counts the requests that arrived, answered or not.
 */
export async function startLanguageModelServer() {
  const requests: ChatRequest[] = [];
  const control: { failWith: number; delayMs: number; gate?: Promise<void> } = { failWith: 0, delayMs: 0 };
  let received = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received++;
      void (control.gate ?? Promise.resolve()).then(() => setTimeout(() => answer(), control.delayMs));
    });
    const answer = () => {
      if (res.destroyed) return;
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return res.writeHead(404).end();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string; messages: { role: string; content: string }[] };
      const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
      const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
      requests.push({ authorization: req.headers.authorization, model: body.model, system, user });
      if (control.failWith) return res.writeHead(control.failWith, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'stand-in outage' } }));
      const input = JSON.parse(user) as unknown;
      let content: string;
      if (Array.isArray(input)) {
        content = JSON.stringify(
          input.map((item: { id: number; title: string; languages: string[] }) => ({
            id: item.id,
            titles: Object.fromEntries(item.languages.map((l) => [l, `${item.title} [${l}]`])),
          })),
        );
      } else {
        const facts = input as { title: Record<string, string> };
        const title = facts.title.en ?? Object.values(facts.title)[0];
        content = '```json\n' + JSON.stringify(Object.fromEntries(catalogLocales.map((l) => [l, `Story (${l}) of ${title}.`]))) + '\n```';
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-local',
          object: 'chat.completion',
          model: body.model,
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
        }),
      );
    };
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    control,
    received: () => received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

import 'server-only';
import { fetchWithRetry, type RetryOptions } from './http';

/**
 * A language model behind any OpenAI-compatible chat-completions endpoint (LLM_BASE_URL,
 * LLM_API_KEY, LLM_MODEL). The pipeline sees only `complete`: a system and a user message in,
 * the answer's text out. Deterministic settings (temperature 0).
 */
export interface LanguageModel {
  /** `signal` aborts the call (and its retries): a caller's overall deadline. */
  complete(system: string, user: string, options?: { signal?: AbortSignal }): Promise<string>;
}

export function chatModel(options: { baseUrl: string; apiKey?: string; model?: string; retry?: RetryOptions }): LanguageModel {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return {
    async complete(system, user, callOptions = {}) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
      const response = await fetchWithRetry(
        url,
        {
          method: 'POST',
          headers,
          body: JSON.stringify({
            model: options.model ?? 'gpt-4o-mini',
            temperature: 0,
            messages: [
              { role: 'system', content: system },
              { role: 'user', content: user },
            ],
          }),
        },
        { timeoutMs: 120_000, ...options.retry, signal: callOptions.signal },
      );
      const json = (await response.json()) as { choices?: { message?: { content?: string } }[] };
      const text = json.choices?.[0]?.message?.content;
      if (typeof text !== 'string') throw new Error('The language model answered without choices[0].message.content');
      return text;
    },
  };
}

/** The first JSON object or array in a model's answer (models like to wrap JSON in prose or fences). */
export function parseJsonAnswer(text: string): unknown {
  const start = text.search(/[[{]/);
  const end = Math.max(text.lastIndexOf('}'), text.lastIndexOf(']'));
  if (start < 0 || end < start) throw new Error('The language model answered without JSON');
  return JSON.parse(text.slice(start, end + 1));
}

import 'server-only';
/**
 * Reads a request body into memory, stopping as soon as it passes `limit` bytes (answering null):
 * a too-large body is refused after at most `limit` bytes were read, whatever it declared.
 */
export async function readBodyAtMost(request: Request, limit: number): Promise<Buffer | null> {
  if (Number(request.headers.get('content-length') ?? 0) > limit) return null;
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The JSON bodies of tRPC (the website's and the dashboard's): the same inputs /v1 takes, so its limit. */
export const MAX_TRPC_BODY_BYTES = 64 * 1024;
/** Form posts (NextAuth's sign-in, the staff sign-in and sign-out): a token, a locale, an address. */
export const MAX_FORM_BODY_BYTES = 16 * 1024;

/**
 * The request with its body held in memory when it is at most `limit` bytes, or the contract's 413
 * (read no further than the limit). Requests without a body pass unchanged. `rebuild` makes the
 * copy (NextAuth wants a NextRequest).
 */
export async function withBodyAtMost<R extends Request>(
  request: R,
  limit: number,
  rebuild: (init: RequestInit) => R = (init) => new Request(request.url, init) as R,
): Promise<R | Response> {
  if (request.method === 'GET' || request.method === 'HEAD' || !request.body) return request;
  const bytes = await readBodyAtMost(request, limit);
  if (bytes === null) {
    return Response.json(
      { error: { code: 'payload_too_large', message: `The request body is larger than ${Math.round(limit / 1024)} KiB.` } },
      { status: 413, headers: { 'cache-control': 'private, no-store' } },
    );
  }
  return rebuild({ method: request.method, headers: request.headers, body: new Uint8Array(bytes) });
}

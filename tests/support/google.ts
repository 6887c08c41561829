import { generateKeyPair, SignJWT } from 'jose';
import { OAuth2Server } from 'oauth2-mock-server';

/**
 * A real local OpenID Connect issuer (oauth2-mock-server) standing in for Google: discovery
 * document, JWKS and RS256-signed ID tokens. The test client id is the `aud` tokens are made for.
 */
export const TEST_GOOGLE_CLIENT_ID = 'test-client-id.apps.googleusercontent.com';

export interface LocalIssuer {
  url: string;
  jwksUrl: string;
  /** An ID token for `claims.sub`/`email` (verified e-mail, our audience, one hour) with `change` applied. */
  idToken(claims: { sub: string; email: string; name?: string }, change?: (header: Record<string, unknown>, payload: Record<string, unknown>) => void): Promise<string>;
  /** A well-formed token signed by a key that is not in the issuer's JWKS (same `kid`). */
  forgedToken(claims: { sub: string; email: string }): Promise<string>;
  /** The mock server itself, for its hooks (`server.service.on('beforeTokenSigning', ...)`). */
  server: OAuth2Server;
  stop(): Promise<void>;
}

export async function startLocalIssuer(): Promise<LocalIssuer> {
  const server = new OAuth2Server();
  const key = await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  const url = server.issuer.url!;
  const forger = await generateKeyPair('RS256');
  return {
    url,
    jwksUrl: `${url}/jwks`,
    idToken: (claims, change) =>
      server.issuer.buildToken({
        scopesOrTransform: (header, payload) => {
          Object.assign(payload, { aud: TEST_GOOGLE_CLIENT_ID, email_verified: true, ...claims });
          change?.(header as Record<string, unknown>, payload as Record<string, unknown>);
        },
      }),
    forgedToken: (claims) =>
      new SignJWT({ email_verified: true, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: key.kid })
        .setIssuer(url)
        .setAudience(TEST_GOOGLE_CLIENT_ID)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(forger.privateKey),
    server,
    stop: () => server.stop(),
  };
}

/** Sets the configuration that points sign-in at `issuer`; call before the app first reads its env. */
export function useLocalIssuer(issuer: LocalIssuer): void {
  process.env.GOOGLE_CLIENT_ID = TEST_GOOGLE_CLIENT_ID;
  process.env.GOOGLE_CLIENT_SECRET = 'test-client-secret';
  process.env.GOOGLE_ISSUER = issuer.url;
  process.env.GOOGLE_JWKS_URL = issuer.jwksUrl;
  process.env.NEXTAUTH_SECRET ??= 'test-nextauth-secret-0123456789abcdef0123';
}

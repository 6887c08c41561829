/**
 * The end-to-end run's Google: a real local OpenID Connect issuer (oauth2-mock-server) on a fixed
 * port, started by playwright.config.ts as a second web server and named to the shop through
 * GOOGLE_ISSUER / GOOGLE_JWKS_URL. Its authorization endpoint answers at once with a code (no
 * login screen), and every token it signs is for the one test shopper below, so the browser goes
 * through NextAuth's whole redirect flow (authorize → callback → code exchange → ID-token check).
 *
 *   node --import tsx tests/support/e2e-oidc.ts --serve
 */

export const E2E_OIDC_PORT = 3108;
export const E2E_OIDC_URL = `http://127.0.0.1:${E2E_OIDC_PORT}`;
export const E2E_GOOGLE_CLIENT_ID = 'e2e-client-id.apps.googleusercontent.com';
const E2E_GOOGLE_CLIENT_SECRET = 'e2e-client-secret';

/** The Google identity every sign-in of the run gets. */
export const E2E_SHOPPER = {
  sub: 'e2e-google-subject-0001',
  email: 'clara.schumann@example.com',
  email_verified: true,
  name: 'Clara Schumann',
  picture: 'https://lh3.googleusercontent.com/a/e2e-shopper',
} as const;

/** What the shop's server needs in its environment to sign in against this issuer, served at `shopUrl`. */
export const e2eGoogleEnv = (shopUrl: string): Record<string, string> => ({
  GOOGLE_CLIENT_ID: E2E_GOOGLE_CLIENT_ID,
  GOOGLE_CLIENT_SECRET: E2E_GOOGLE_CLIENT_SECRET,
  GOOGLE_ISSUER: E2E_OIDC_URL,
  GOOGLE_JWKS_URL: `${E2E_OIDC_URL}/jwks`,
  // A production shop takes a test issuer only when told so (and says so loudly at start).
  ALLOW_TEST_IDENTITY_PROVIDER: '1',
  // The address the browser uses. NextAuth builds its callback address from it (the state and
  // PKCE cookies set before the redirect must come back to the same host), and account writes are
  // accepted from this Origin: behind `next start` a request's own URL says localhost, not 127.0.0.1.
  PUBLIC_BASE_URL: shopUrl,
  NEXTAUTH_URL: shopUrl,
});

async function serve(): Promise<void> {
  const { OAuth2Server } = await import('oauth2-mock-server');
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  // Both the access token and the ID token carry the shopper; NextAuth reads the ID token's claims.
  server.service.on('beforeTokenSigning', (token) => {
    Object.assign(token.payload, E2E_SHOPPER);
  });
  server.service.on('beforeUserinfo', (userinfo) => {
    userinfo.body = { ...E2E_SHOPPER };
  });
  await server.start(E2E_OIDC_PORT, '127.0.0.1');
  // The mock names itself http://localhost:…; the shop is told 127.0.0.1, and `iss` must match exactly.
  server.issuer.url = E2E_OIDC_URL;
  console.log(`e2e OpenID Connect issuer at ${server.issuer.url}`);
  const stop = () => void server.stop().finally(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (process.argv.includes('--serve')) {
  serve().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

import 'server-only';
import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { DomainError } from '@/server/errors';

/** Where Google ID tokens come from; tests point it at a local OpenID Connect issuer. */
export interface GoogleIssuerConfig {
  /** Our OAuth client id: the token's `aud` must be exactly this. */
  clientId: string;
  /** The `iss` the token must carry (Google: https://accounts.google.com). */
  issuer: string;
  /** The issuer's signing keys (Google: https://www.googleapis.com/oauth2/v3/certs). */
  jwksUrl: string;
}

/** The verified facts of a Google ID token that sign-in uses. */
export interface GoogleIdentity {
  subject: string;
  email: string;
  name: string | null;
  picture: string | null;
}

export const GOOGLE_ISSUER = 'https://accounts.google.com';
/** Google signs ID tokens with RS256 only; anything else (`none`, HS256 with a public key...) is refused. */
const ALGORITHMS = ['RS256'];

const keySets = new Map<string, JWTVerifyGetKey>();
/** One remote key set per address: jose caches the keys and refetches on an unknown `kid`. */
function keySet(url: string): JWTVerifyGetKey {
  let set = keySets.get(url);
  if (!set) keySets.set(url, (set = createRemoteJWKSet(new URL(url), { timeoutDuration: 5000, cooldownDuration: 30_000 })));
  return set;
}

const refused = (why: string) => new DomainError('unauthorized', `The Google credential was refused: ${why}.`);

/**
 * Verifies a Google ID token (Google Identity Services "credential"): signature against the
 * issuer's JWKS, `aud` = our client id, `iss`, expiry, and a verified e-mail. Throws a DomainError
 * `unauthorized` for any token that does not pass; an unreachable key set is an internal error.
 */
export async function verifyGoogleIdToken(credential: string, config: GoogleIssuerConfig): Promise<GoogleIdentity> {
  // Google has used both spellings of its issuer.
  const issuers = config.issuer === GOOGLE_ISSUER ? [GOOGLE_ISSUER, 'accounts.google.com'] : [config.issuer];
  let payload;
  try {
    ({ payload } = await jwtVerify(credential, keySet(config.jwksUrl), {
      issuer: issuers,
      audience: config.clientId,
      algorithms: ALGORITHMS,
      requiredClaims: ['exp', 'iat', 'sub'],
      clockTolerance: 5,
    }));
  } catch (error) {
    if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) throw error;
    if (error instanceof errors.JOSEError) throw refused(describe(error));
    throw error;
  }
  const { sub, email, email_verified: verified } = payload as Record<string, unknown>;
  if (typeof sub !== 'string' || !sub) throw refused('it names no subject');
  if (typeof email !== 'string' || !email.includes('@')) throw refused('it carries no e-mail address');
  if (verified !== true && verified !== 'true') throw refused('the e-mail address is not verified');
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  return { subject: sub, email: email.toLowerCase(), name: text(payload.name), picture: text(payload.picture) };
}

function describe(error: InstanceType<typeof errors.JOSEError>): string {
  if (error instanceof errors.JWTExpired) return 'it has expired';
  if (error instanceof errors.JWTClaimValidationFailed) return `its "${error.claim}" claim does not match`;
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) return 'its signature does not verify';
  if (error instanceof errors.JOSEAlgNotAllowed) return 'its signing algorithm is not accepted';
  return 'it is not a well-formed signed token';
}

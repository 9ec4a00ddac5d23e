import * as client from 'openid-client';

/** OpenID Connect sign-in (code flow + PKCE); implemented in this file by createOidcAdapter. */
export interface OidcClaims {
  sub: string;
  email: string;
  emailVerified: boolean;
  firstName?: string;
  lastName?: string;
  picture?: string;
}

export interface OidcAdapter {
  /** Where the provider sends the browser back: `<public origin>/api/callback`. */
  redirectUri: string;
  /** Builds the provider URL; `state` is an opaque value to keep in a short-lived signed cookie. */
  start(returnTo: string): Promise<{ url: string; state: string }>;
  /** Exchanges the code at the callback URL, checks state and nonce, and reads the user's claims. */
  finish(currentUrl: URL, state: string): Promise<{ claims: OidcClaims; returnTo: string }>;
}


interface PendingLogin {
  verifier: string;
  state: string;
  nonce: string;
  returnTo: string;
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/**
 * Discovers the provider and returns the adapter. TLS is always verified: a private CA is
 * trusted through NODE_EXTRA_CA_CERTS, never by switching checks off.
 */
export async function createOidcAdapter(opts: {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}): Promise<OidcAdapter> {
  // client_secret_basic is the registration default of OpenID providers.
  const config = await client.discovery(new URL(opts.issuerUrl), opts.clientId, opts.clientSecret, client.ClientSecretBasic(opts.clientSecret));
  return {
    redirectUri: opts.redirectUri,
    async start(returnTo) {
      const pending: PendingLogin = {
        verifier: client.randomPKCECodeVerifier(),
        state: client.randomState(),
        nonce: client.randomNonce(),
        returnTo,
      };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: opts.redirectUri,
        scope: 'openid email profile',
        code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
      });
      return { url: url.href, state: Buffer.from(JSON.stringify(pending)).toString('base64url') };
    },
    async finish(currentUrl, state) {
      const pending = JSON.parse(Buffer.from(state, 'base64url').toString('utf8')) as PendingLogin;
      const tokens = await client.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new Error('The provider returned no ID token');
      // Many providers put email only in userinfo, not in the ID token.
      const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
      const email = str(info.email) ?? str(idClaims.email);
      if (!email) throw new Error('The provider did not share an email address');
      return {
        returnTo: pending.returnTo,
        claims: {
          sub: idClaims.sub,
          email,
          emailVerified: (info.email_verified ?? idClaims.email_verified) === true,
          firstName: str(info.given_name) ?? str(idClaims.given_name),
          lastName: str(info.family_name) ?? str(idClaims.family_name),
          picture: str(info.picture),
        },
      };
    },
  };
}

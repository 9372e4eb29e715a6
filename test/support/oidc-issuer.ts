// A real OIDC provider for tests (oidc-provider from npm) on a free port: discovery, JWKS, and a token
// endpoint issuing JWT access tokens by client credentials. Each client's claims (org, roles) are set
// here; rotate() swaps in a new signing key, as an issuer does, on the same URL.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import Provider from "oidc-provider";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";

export const AUDIENCE = "https://engram.test";

export interface TestClient {
  id: string;
  secret: string;
  claims: Record<string, unknown>;
  /** A client of people's logins (authorization code) instead of a service's (client credentials). */
  redirectUri?: string;
}

export interface TestIssuer {
  url: string;
  /** A JWT access token for `clientId` by the client-credentials grant, from the token endpoint. */
  token(clientId: string): Promise<string>;
  /** A person's login by the authorization-code flow (PKCE), through the provider's own login and consent forms. */
  login(clientId: string, user: string): Promise<{ accessToken: string; idToken: string }>;
  /** A token signed with the issuer's current key, carrying exactly `claims` (for expired, wrong aud/iss…). */
  sign(claims: Record<string, unknown>, header?: Record<string, unknown>): Promise<string>;
  /** A new signing key (new kid); the old one is no longer published. */
  rotate(): Promise<void>;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function signingKey(kid: string): Promise<{ jwk: JWK; privateKey: CryptoKey }> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  return { jwk: { ...(await exportJWK(privateKey)), kid, alg: "RS256", use: "sig" }, privateKey };
}

export async function startIssuer(clients: TestClient[]): Promise<TestIssuer> {
  let handler: Handler = (_req, res) => res.end();
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  let generation = 0;
  let key = await signingKey(`k${++generation}`);
  const provider = () =>
    new Provider(url, {
      clients: clients.map((c) => ({
        client_id: c.id,
        client_secret: c.secret,
        grant_types: c.redirectUri ? ["authorization_code"] : ["client_credentials"],
        redirect_uris: c.redirectUri ? [c.redirectUri] : [],
        response_types: c.redirectUri ? ["code"] : [],
      })),
      features: {
        clientCredentials: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => AUDIENCE,
          useGrantedResource: () => true,
          getResourceServerInfo: () => ({
            scope: "memories",
            audience: AUDIENCE,
            accessTokenFormat: "jwt",
            accessTokenTTL: 300,
          }),
        },
      },
      // Every lifetime set, so the provider does not print a notice per default it falls back on.
      ttl: {
        ClientCredentials: 300,
        AccessToken: 300,
        AuthorizationCode: 60,
        IdToken: 300,
        Interaction: 600,
        Session: 600,
        Grant: 600,
      },
      extraTokenClaims: (_ctx: unknown, token: { clientId?: string }) =>
        clients.find((c) => c.id === token.clientId)?.claims,
      jwks: { keys: [key.jwk] },
    });
  handler = provider().callback();
  return {
    url,
    async token(clientId) {
      const c = clients.find((x) => x.id === clientId)!;
      const res = await fetch(`${url}/token`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${btoa(`${c.id}:${c.secret}`)}`,
        },
        body: "grant_type=client_credentials&scope=memories",
      });
      const body = (await res.json()) as { access_token?: string; error?: string };
      if (!body.access_token) throw new Error(`token endpoint: ${res.status} ${JSON.stringify(body)}`);
      return body.access_token;
    },
    login: (clientId, user) => codeFlow(url, clients.find((c) => c.id === clientId)!, user),
    sign: (claims, header = {}) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: "RS256", kid: key.jwk.kid!, typ: "at+jwt", ...header })
        .sign(key.privateKey),
    async rotate() {
      key = await signingKey(`k${++generation}`);
      handler = provider().callback();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Follows the browser's redirects by hand, keeping the provider's cookies, and answers the tokens. */
async function codeFlow(
  issuer: string,
  c: TestClient,
  user: string,
): Promise<{ accessToken: string; idToken: string }> {
  const jar = new Map<string, string>();
  const go = async (url: string, form?: Record<string, string>): Promise<string> => {
    const res = await fetch(new URL(url, issuer), {
      method: form ? "POST" : "GET",
      redirect: "manual",
      headers: {
        cookie: [...jar].map(([n, v]) => `${n}=${v}`).join("; "),
        ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    for (const set of res.headers.getSetCookie()) {
      const pair = set.split(";")[0]!;
      const eq = pair.indexOf("=");
      if (eq + 1 < pair.length) jar.set(pair.slice(0, eq), pair.slice(eq + 1));
      else jar.delete(pair.slice(0, eq));
    }
    await res.body?.cancel();
    const next = res.headers.get("location");
    if (res.status !== 303 || !next) throw new Error(`${url}: ${res.status}, expected a redirect`);
    return next;
  };
  const verifier = crypto.randomUUID() + crypto.randomUUID();
  const challenge = new Bun.CryptoHasher("sha256").update(verifier).digest("base64url");
  const query = new URLSearchParams({
    client_id: c.id,
    response_type: "code",
    redirect_uri: c.redirectUri!,
    scope: "openid memories",
    resource: AUDIENCE,
    code_challenge: challenge,
    code_challenge_method: "S256",
  });
  let at = await go(`/auth?${query}`);
  // The provider asks for a login, then for consent; each answer leads back to /auth, which redirects on.
  for (const prompt of ["login", "consent"]) at = await go(await go(at, { prompt, login: user, password: "-" }));
  const code = new URL(at).searchParams.get("code");
  if (!code) throw new Error(`no code in ${at}`);
  const res = await fetch(`${issuer}/token`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${btoa(`${c.id}:${c.secret}`)}`,
    },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: c.redirectUri!,
      code_verifier: verifier,
    }),
  });
  const body = (await res.json()) as { access_token?: string; id_token?: string };
  if (!body.access_token || !body.id_token) throw new Error(`token endpoint: ${res.status} ${JSON.stringify(body)}`);
  return { accessToken: body.access_token, idToken: body.id_token };
}

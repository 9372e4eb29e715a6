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
}

export interface TestIssuer {
  url: string;
  /** A JWT access token for `clientId` by the client-credentials grant, from the token endpoint. */
  token(clientId: string): Promise<string>;
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
        grant_types: ["client_credentials"],
        redirect_uris: [],
        response_types: [],
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
      ttl: { ClientCredentials: 300 },
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

// An A2A 1.0 agent served by the official A2A JS SDK (@a2a-js/sdk), whose
// authenticated extended agent card (GetExtendedAgentCard) is behind a bearer
// token. Run by the Go tests (livedoctest.ServeA2AAgent):
//   A2A_TOKEN=... node a2a-agent.mjs [MODE]
// serves on 127.0.0.1 and prints one line of JSON on stdout:
//   {"url": ..., "restUrl": ..., "jsonrpcUrl": ..., "publicCard": {...}, "extendedCard": {...}}
// with each card as the SDK serves it. It exits when its stdin ends.
//
// Routes: GET /.well-known/agent-card.json (the public card), the HTTP+JSON
// binding under /a2a/rest (GET /a2a/rest/extendedAgentCard), the JSON-RPC
// binding at /a2a/jsonrpc (method GetExtendedAgentCard). A request that
// carries "Authorization: Bearer $A2A_TOKEN" is an authenticated user.
//
// The environment may also set:
//   A2A_AUTH_SERVER  the issuer of an authorization server: the card then
//                    declares an OAuth 2.0 scheme naming it (its metadata,
//                    and its token endpoint for the client credentials flow)
//                    instead of a plain bearer scheme; A2A_TOKEN is then the
//                    token that server issues
//   A2A_SIGNING_JWK  a private JWK (with kid): both cards are signed with it,
//                    once, by the SDK's generateAgentCardSignature
//   A2A_TAMPER=1     the cards are changed after they were signed, so that
//                    their signatures do not verify
//
// MODE:
//   extended       (the default) the card declares capabilities.extendedAgentCard
//                  and the extended card is configured; as the card's
//                  securityRequirements say, every request of either binding
//                  without the token, or with another, is answered 401 with
//                  WWW-Authenticate: Bearer, as a protected resource is
//   undeclared     the card does not declare an extended card
//   unconfigured   the card declares one, but none is configured
//   sdk-auth-only  as extended, without the 401: the SDK's own handling, which
//                  answers an unauthenticated caller with the public card
import express from 'express';
import { AgentCard, generateAgentCardSignature } from '@a2a-js/sdk';
import { DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler } from '@a2a-js/sdk/server/express';

const mode = process.argv[2] || 'extended';
const token = process.env.A2A_TOKEN || '';
const authServer = process.env.A2A_AUTH_SERVER || '';
const signingKey = process.env.A2A_SIGNING_JWK ? JSON.parse(process.env.A2A_SIGNING_JWK) : null;
const tamper = process.env.A2A_TAMPER === '1';
if (!['extended', 'undeclared', 'unconfigured', 'sdk-auth-only'].includes(mode) || token === '') {
  console.error('usage: A2A_TOKEN=... node a2a-agent.mjs [extended|undeclared|unconfigured|sdk-auth-only]');
  process.exit(2);
}

const authenticated = (req) => req.headers.authorization === `Bearer ${token}`;

// userBuilder: the bearer token makes the caller a user.
const userBuilder = async (req) => ({
  get isAuthenticated() { return authenticated(req); },
  get userName() { return authenticated(req) ? 'registry-reader' : ''; },
});

// The agent never runs a task: the tests read its cards only.
const executor = {
  async execute(_context, eventBus) { eventBus.finished(); },
  async cancelTask() {},
};

// security is the card's scheme: a bearer token, or OAuth 2.0 at authServer.
function security() {
  if (authServer === '') {
    return {
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'opaque' } } },
      securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    };
  }
  return {
    securitySchemes: {
      registry: {
        oauth2SecurityScheme: {
          flows: { clientCredentials: { tokenUrl: `${authServer}/token`, scopes: { 'agent.card': 'Read the extended card' } } },
          oauth2MetadataUrl: `${authServer}/.well-known/oauth-authorization-server`,
        },
      },
    },
    securityRequirements: [{ schemes: { registry: { list: ['agent.card'] } } }],
  };
}

// sign signs a card once with signingKey, if any (and changes it after, to
// tamper).
async function sign(card) {
  if (signingKey === null) {
    return card;
  }
  // The signer canonicalizes the card's JSON form (AgentCard.toJSON): given
  // the SDK's own object, its canonical form would leave out the security
  // schemes and requirements, which the signature must cover.
  const signer = generateAgentCardSignature(signingKey, { alg: signingKey.alg || 'ES256', kid: signingKey.kid, typ: 'JOSE' });
  const signed = await signer(AgentCard.toJSON(card));
  if (tamper) {
    signed.description = `${signed.description} (changed after signing)`;
  }
  return AgentCard.fromJSON(signed);
}

function cards(base) {
  const publicCard = {
    name: 'Ledger Agent',
    description: 'Books and reconciles ledgers',
    version: '1.3.0',
    supportedInterfaces: [
      { url: `${base}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      { url: `${base}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: mode !== 'undeclared' },
    ...security(),
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'balance', name: 'Balance', description: 'Reports the balance of an account', tags: ['ledger'] }],
  };
  const extendedCard = {
    ...publicCard,
    description: 'Books and reconciles ledgers; reconciles for authenticated callers',
    skills: [
      ...publicCard.skills,
      { id: 'reconcile', name: 'Reconcile', description: 'Reconciles two ledgers', tags: ['ledger', 'admin'] },
    ],
  };
  return { publicCard: AgentCard.fromJSON(publicCard), extendedCard: AgentCard.fromJSON(extendedCard) };
}

async function signedCards(base) {
  const { publicCard, extendedCard } = cards(base);
  return { publicCard: await sign(publicCard), extendedCard: await sign(extendedCard) };
}

// gate answers 401 to a request of the agent's bindings without the token.
function gate(req, res, next) {
  if (mode !== 'sdk-auth-only' && !authenticated(req)) {
    res.status(401).set('WWW-Authenticate', 'Bearer realm="ledger-agent"')
      .json({ error: { code: 401, status: 'UNAUTHENTICATED', message: 'A bearer token is required.' } });
    return;
  }
  next();
}

const app = express();
const server = app.listen(0, '127.0.0.1', async () => {
  const base = `http://127.0.0.1:${server.address().port}`;
  const { publicCard, extendedCard } = await signedCards(base);
  const requestHandler = new DefaultRequestHandler(publicCard, new InMemoryTaskStore(), executor, undefined,
    undefined, undefined, mode === 'unconfigured' ? undefined : extendedCard);
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: async () => AgentCard.toJSON(publicCard) }));
  app.use('/a2a/rest', gate, restHandler({ requestHandler, userBuilder }));
  app.use('/a2a/jsonrpc', gate, jsonRpcHandler({ requestHandler, userBuilder }));
  console.log(JSON.stringify({
    url: base,
    restUrl: `${base}/a2a/rest`,
    jsonrpcUrl: `${base}/a2a/jsonrpc`,
    publicCard: AgentCard.toJSON(publicCard),
    extendedCard: AgentCard.toJSON(extendedCard),
  }));
});
process.stdin.on('end', () => process.exit(0)).resume();

// make-independent-fixture.mjs writes agent-card signature fixtures made by an
// implementation other than ours, so that cardsig's canonicalisation and JWS
// handling are checked against someone else's:
//
//   independent-card.json        the unsigned card as written (odd spacing,
//                                escapes, numbers and keys that JCS must sort
//                                by UTF-16 code units)
//   independent-canonical.json   its RFC 8785 form, by `canonicalize` (the JCS
//                                reference implementation by the RFC's author)
//   independent-jwks.json        the public keys, by kid
//   independent-signed-card.json the card with four signatures (ES256, ES384,
//                                EdDSA, PS256) made by `jose`, each a JWS with
//                                a detached payload: the canonical card
//
// Keys are generated afresh at each run; the private keys are never written.
//
// Regenerate (node 20 or later; npm reaches the registry):
//
//   tmp=$(mktemp -d) && cp internal/cardsig/testdata/make-independent-fixture.mjs "$tmp" &&
//   (cd "$tmp" && npm init -y >/dev/null && npm install jose@6.2.18 canonicalize@4.0.0 &&
//    node make-independent-fixture.mjs) && cp "$tmp"/independent-*.json internal/cardsig/testdata/
//
// The fixtures committed were made with jose 6.2.18 and canonicalize 4.0.0.

import { writeFileSync } from 'node:fs';
import canonicalize from 'canonicalize';
import { exportJWK, FlattenedSign, generateKeyPair } from 'jose';

// String.raw keeps every backslash, so the file is byte for byte this text.
const source = String.raw`{
  "protocolVersion" : "0.3.0",
  "name": "Ünïcødé weather agent €",
  "description": "Forecasts \"quoted\", tab\t, newline\n, control \u0001, slash \/ and <b>&amp;</b>; emoji 😀 = \ud83d\ude00",
  "url": "https://agent.example/a2a",
  "version": "1.0.0",
  "capabilities": {"extensions": [{"uri": "https://ext.example/numbers",
    "params": {"int": 100, "float": 1.50, "exp": 1E3, "big": 1e21, "tiny": 0.000001, "smaller": 1e-7,
               "negzero": -0.0, "frac": 0.1, "maxsafe": 9007199254740991, "neg": -12.5e-1}}]},
  "defaultInputModes": ["text/plain"], "defaultOutputModes": ["application/json"],
  "skills": [{"id": "forecast", "name": "Forecast", "description": "Daily forecast",
              "tags": ["weather"], "examples": ["Wetter in München?"]}],
  "keyOrder": {"b": 1, "a": 2, "é": 3, "e": 4, "\u20ac": 5, "😀": 6, "\ufb33": 7, "aa": 8, "A": 9}
}
`;

const algs = [
  { alg: 'ES256', kid: 'independent-es256' },
  { alg: 'ES384', kid: 'independent-es384' },
  { alg: 'EdDSA', kid: 'independent-ed25519', crv: 'Ed25519' },
  { alg: 'PS256', kid: 'independent-ps256' },
];

const card = JSON.parse(source);
const canonical = canonicalize(card);
const payload = new TextEncoder().encode(canonical);

const keys = [];
const signatures = [];
for (const { alg, kid, crv } of algs) {
  const { publicKey, privateKey } = await generateKeyPair(alg, { crv, extractable: true });
  keys.push({ ...(await exportJWK(publicKey)), kid, alg, use: 'sig' });
  // jku is only there to show that the verifier never fetches it.
  const header = { alg, kid, typ: 'JOSE', jku: 'https://keys.example/jwks.json' };
  const jws = await new FlattenedSign(payload).setProtectedHeader(header).sign(privateKey);
  signatures.push({ protected: jws.protected, signature: jws.signature });
}

writeFileSync('independent-card.json', source);
writeFileSync('independent-canonical.json', canonical);
writeFileSync('independent-jwks.json', JSON.stringify({ keys }, null, 2) + '\n');
writeFileSync('independent-signed-card.json', JSON.stringify({ ...card, signatures }, null, 2) + '\n');

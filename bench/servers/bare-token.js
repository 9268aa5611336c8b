// Bench child for bench/compare.js, row 7's floor: the least a correct token server does for the
// bench's request, in plain node:http, with nothing else. It reads the body, checks the Basic
// credentials and the form (grant_type, scope), builds the claims svc-mock signs (same names,
// a random UUID jti), signs them with node:crypto and the same algorithm (a key made before it
// listens, as svc-mock's bench child does), and answers svc-mock's status, headers and JSON shape.
// What svc-mock costs above this is its own overhead; this server's requests/s over
// oauth2-mock-server's is the best ratio any server could show against that peer in that run.
// `node bench/servers/bare-token.js ALG`; prints `bare token listening on http://127.0.0.1:PORT`.
import { generateKeyPairSync, randomUUID, sign, timingSafeEqual } from 'node:crypto'
import { createServer } from 'node:http'

const alg = process.argv[2] ?? 'RS256'
const { privateKey } =
  alg === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('rsa', { modulusLength: 2048 })
const key = alg === 'ES256' ? { key: privateKey, dsaEncoding: 'ieee-p1363' } : privateKey
const header = Buffer.from(JSON.stringify({ alg, kid: 'bench', typ: 'JWT' })).toString('base64url')
const expected = Buffer.from('ci-client:ci-secret')
const LIFETIME = 899

const fail = (res, status, error) => {
  const body = JSON.stringify({ error })
  res.writeHead(status, { 'cache-control': 'no-store', pragma: 'no-cache', 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) })
  res.end(body)
}

const server = createServer((req, res) => {
  const chunks = []
  req.on('data', (chunk) => chunks.push(chunk))
  req.on('end', () => {
    if (req.method !== 'POST' || req.url !== '/token') return fail(res, 404, 'not_found')
    const auth = req.headers.authorization ?? ''
    const presented = Buffer.from(auth.slice(6), 'base64')
    if (!auth.startsWith('Basic ') || presented.length !== expected.length || !timingSafeEqual(presented, expected)) return fail(res, 401, 'invalid_client')
    const form = new URLSearchParams(Buffer.concat(chunks).toString())
    if (form.get('grant_type') !== 'client_credentials') return fail(res, 400, 'unsupported_grant_type')
    const scope = form.get('scope') ?? ''
    const origin = `http://${req.headers.host}`
    const iat = Math.floor(Date.now() / 1000)
    const claims = { client_id: 'ci-client', scope, iss: origin, sub: 'ci-client', aud: origin, iat, exp: iat + LIFETIME, jti: randomUUID() }
    const input = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`
    const token = `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`
    const body = JSON.stringify({ access_token: token, scope, token_type: 'Bearer', expires_in: LIFETIME })
    res.writeHead(200, { 'cache-control': 'no-store', pragma: 'no-cache', 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) })
    res.end(body)
  })
})
server.keepAliveTimeout = 65_000
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`bare token listening on http://127.0.0.1:${server.address().port}\n`)
})
process.once('SIGTERM', () => server.close(() => process.exit(0)))

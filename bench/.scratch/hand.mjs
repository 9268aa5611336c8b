import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
const body = '{"count":3}'
const server = setupServer(http.get('https://acme.svc-mock.test/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/:id/versions', () => new HttpResponse(body, { headers: { 'content-type': 'application/json' } })))
server.listen()
const r = await fetch('https://acme.svc-mock.test/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/0f8fad5b-d9cb-469f-a165-70867728950e/versions', { headers: { authorization: 'AppKey svcmock-app-key' } })
await r.text()
server.close()

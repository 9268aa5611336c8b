import { setupServer } from 'msw/node'
import { createEmulator } from '../../dist/index.js'
const emu = await createEmulator()
const server = setupServer(...emu.handlers)
server.listen()
const r = await fetch('https://acme.svc-mock.test/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/0f8fad5b-d9cb-469f-a165-70867728950e/versions', { headers: { authorization: 'AppKey svcmock-app-key' } })
await r.text()
server.close()
await emu.close()

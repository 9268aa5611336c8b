/**
 * The OpenAPI 3.1 document: generated from the route registry, served at
 * `GET /__svc-mock/openapi.json` on every way in, valid for a real OpenAPI validator
 * (@readme/openapi-parser: the 3.1 JSON Schema and its own checks, such as path parameters
 * declared and operation ids unique), naming every registered route, and kept in docs/openapi.json.
 */
import { readFileSync } from 'node:fs'
import { compileErrors, validate } from '@readme/openapi-parser'
import { afterAll, describe, expect, it } from 'vitest'
import { createEmulator, type JsonObject } from '../../src/index.js'
import { contract } from '../support/harness.js'

type Operation = { operationId: string; 'x-svc-mock-route': string; requestBody?: { content: Record<string, { schema: JsonObject }> } }
type Doc = { openapi: string; servers: Array<{ url: string }>; paths: Record<string, Record<string, Operation | unknown>>; components: { schemas: Record<string, JsonObject> } }

async function problems(doc: JsonObject): Promise<string> {
  const result = await validate(structuredClone(doc) as never)
  return result.valid ? '' : compileErrors(result)
}

/** Operations of the document, as `METHOD /path` -> the route id it names. */
function operations(doc: Doc): Map<string, string> {
  const out = new Map<string, string>()
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (method === 'servers' || method === 'parameters') continue
      out.set(`${method.toUpperCase()} ${path}`, (op as Operation)['x-svc-mock-route'])
    }
  }
  return out
}

contract('the OpenAPI document', (h) => {
  it('is served at GET /__svc-mock/openapi.json, valid OpenAPI 3.1, with every route the emulator serves', async () => {
    const response = await h.fetch('/__svc-mock/openapi.json')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    const doc = (await response.json()) as Doc
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.servers[0]?.url).toBe(h.emu.urls.base)
    expect(await problems(doc as unknown as JsonObject)).toBe('')
    const ops = operations(doc)
    const routes = h.emu.routes()
    expect(routes.length).toBeGreaterThan(50)
    for (const route of routes) {
      const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
      const methods = route.method === '*' ? ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] : [route.method]
      for (const method of methods) expect(ops.get(`${method} ${path}`), `${route.id}: ${method} ${path}`).toBe(route.id)
    }
    expect(new Set(ops.values())).toEqual(new Set(routes.map((r) => r.id)))
  })
})

describe('the OpenAPI document', async () => {
  const emu = await createEmulator({ origin: 'http://127.0.0.1:4010' })
  const doc = (await emu.openapi()) as unknown as Doc

  it('docs/openapi.json is current (npm run openapi writes it)', () => {
    expect(JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'))).toEqual(doc)
  })

  it('describes the control plane\'s bodies with the schemas that check them', () => {
    const create = doc.paths['/__svc-mock/webhooks']?.post as Operation
    expect(create.requestBody?.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/WebhookInput' })
    const input = doc.components.schemas.WebhookInput as { properties: Record<string, unknown>; required: string[]; additionalProperties: boolean }
    expect(Object.keys(input.properties)).toEqual(['id', 'name', 'dataStructure', 'learning', 'secured', 'options', 'flow'])
    expect(input.required).toEqual(['name'])
    expect(input.additionalProperties).toBe(false)
  })

  it('documents the versions operation\'s query options and its error body', () => {
    const list = doc.paths['/{collectionId}/{storageId}/_api/rest/facets/{facetId}/views/{viewId}/elements/{elementId}/versions']?.get as {
      parameters: Array<{ name: string; in: string }>
      responses: Record<string, { content?: Record<string, { schema: unknown }> }>
    }
    expect(list.parameters.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(['$resources', '$select', '$expandRelated', '$filter', '$page', '$pageSize', 'api-version'])
    expect(list.parameters.filter((p) => p.in === 'path').map((p) => p.name)).toEqual(['collectionId', 'storageId', 'facetId', 'viewId', 'elementId'])
    expect(list.responses['404']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/OperationResult' })
  })

  it('the validator finds a broken document (the check is not vacuous)', async () => {
    const broken = structuredClone(doc) as unknown as { paths: Record<string, Record<string, { parameters?: unknown[] }>> }
    const health = broken.paths['/__svc-mock/webhooks/{id}']?.get
    if (health) health.parameters = []
    expect(await problems(broken as unknown as JsonObject)).toMatch(/\{id\}/)
  })

  afterAll(() => emu.close())
})

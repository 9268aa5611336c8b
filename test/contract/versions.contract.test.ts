/**
 * The versions operation, rule by rule: the service description's "List element versions"
 * section and product.md section 3, on both transports.
 */
import { expect, it } from 'vitest'
import { APP_KEY, BOB_KEY, contract, SEED_ELEMENT, VERSIONS } from '../support/harness.js'

const V1 = 'c1b9a3e2-5d4f-4a6b-8c7d-9e0f1a2b3c4d'
const V2 = '2d4e6f80-1a3b-4c5d-8e9f-0a1b2c3d4e5f'
const V3 = '3e5f7091-2b4c-4d6e-9fa0-1b2c3d4e5f60'
const ALICE_ELEMENT = '6f1c2a4e-3b5d-4c7e-9f8a-1b2c3d4e5f60'
/** The default sub-process that has every optional Element field (stereotype, children, content, rootPath, setReadOnly). */
const SUB_PROCESS = '5d8b2c41-7e3a-4f69-b0d2-8c1e4a7f3b95'

type Element = {
  facetName: string
  id: string
  versionId: string
  type: string
  state: string
  displayNames?: Record<string, string>
  attributes?: Record<string, Record<string, unknown>>
  related?: Record<string, Array<Record<string, unknown>>>
}
type VersionList = { count: number; elements: Element[] }
type ErrorBody = { data: Array<{ error: string }>; message: string; output: string; type: string }

contract('versions: listing', { team: true }, (h) => {
  const list = async (query = '', elementId = SEED_ELEMENT): Promise<{ status: number; body: VersionList; response: Response }> => {
    const response = await h.fetch(`${VERSIONS(elementId)}${query}`, { headers: APP_KEY })
    return { status: response.status, body: (await response.json()) as VersionList, response }
  }

  it('returns the three versions of the seed element, oldest first: expired, released, inProcess', async () => {
    const { status, body, response } = await list()
    expect(status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(body.count).toBe(3)
    expect(body.elements.map((e) => [e.versionId, e.state])).toEqual([
      [V1, 'expired'],
      [V2, 'released'],
      [V3, 'inProcess'],
    ])
    expect(Object.keys(body)).toEqual(['count', 'elements'])
  })

  it('answers the same bytes every time, and a version added, removed or reset away shows at once (the joined answer is reused only while the versions are the same)', async () => {
    const first = await (await h.fetch(VERSIONS(), { headers: APP_KEY })).text()
    expect(await (await h.fetch(VERSIONS(), { headers: APP_KEY })).text()).toBe(first)
    await h.emu.elements.addVersion(SEED_ELEMENT, { versionId: 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d', state: 'inProcess' })
    const added = await list()
    expect(added.body.count).toBe(4)
    expect(added.body.elements.at(-1)?.versionId).toBe('a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d')
    await h.emu.elements.removeVersion(SEED_ELEMENT, 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d')
    expect(await (await h.fetch(VERSIONS(), { headers: APP_KEY })).text()).toBe(first)
    await h.emu.elements.addVersion(SEED_ELEMENT, { versionId: 'b0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d', state: 'inProcess' })
    expect((await list()).body.count).toBe(4)
    await h.emu.reset()
    expect(await (await h.fetch(VERSIONS(), { headers: APP_KEY })).text()).toBe(first)
  })

  it('gives every element the id of the element, its own versionId, type, state, facetName and displayNames', async () => {
    const { body } = await list()
    for (const element of body.elements) {
      expect(element.id).toBe(SEED_ELEMENT)
      expect(element.facetName).toBe('processes')
      expect(element.type).toBe('mainProcess')
      expect(element.displayNames).toEqual({ '1031': 'Hauptprozess', '1033': 'Main process' })
    }
    expect(Object.keys(body.elements[0] ?? {})).toEqual(['facetName', 'id', 'versionId', 'type', 'state', 'displayNames', 'attributes', 'related'])
  })

  it('keys attributes by name, then by language: 1031 German, 1033 English, 127 language-independent', async () => {
    const { body } = await list()
    const [expired, released, inProcess] = body.elements
    expect(expired?.attributes?.name).toEqual({ '1031': 'Auftragsabwicklung', '1033': 'Order to Cash' })
    expect(expired?.attributes?.version).toEqual({ '127': '1.0' })
    expect(released?.attributes?.version).toEqual({ '127': '2.0' })
    expect(inProcess?.attributes?.version).toEqual({ '127': '2.1' })
    expect(released?.attributes?.isReleased).toEqual({ '127': true })
    expect(expired?.attributes?.isReleased).toEqual({ '127': false })
    expect(Object.keys(expired?.attributes ?? {}).sort()).toEqual(
      ['authorNote', 'changedOn', 'createdOn', 'gotoUrl', 'isReleased', 'name', 'reasonForRevision', 'relOn', 'state1', 'validFrom', 'validUntil', 'version'].sort(),
    )
    for (const key of ['changedOn', 'createdOn', 'relOn', 'validFrom', 'validUntil']) {
      expect(expired?.attributes?.[key]?.['127']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?$/)
    }
    expect(expired?.attributes?.reasonForRevision?.['127']).toMatch(/^<\?xml version="1\.0" encoding="utf-8"\?><p>.+<\/p>$/)
    expect(expired?.attributes?.gotoUrl?.['1033']).toBe(`${h.origin}/acme-collection/acme-tenant/1033/BasePlugin/GoTo/Processes/treeanddiagram/${V1}`)
  })

  it('lists user relations as references with facetName, id, creationId, type and expandUri', async () => {
    const { body } = await list()
    const author = body.elements[0]?.related?.author
    expect(author).toEqual([
      {
        facetName: 'users',
        id: ALICE_ELEMENT,
        creationId: ALICE_ELEMENT,
        type: 'user',
        expandUri: `${h.origin}/acme-collection/acme-tenant/_api/rest/facets/users/views/detail/elements/${ALICE_ELEMENT}`,
      },
    ])
    expect(Object.keys(body.elements[0]?.related ?? {})).toEqual(['author', 'changedBy', 'createdBy', 'owner', 'relBy', 'releaseHistory'])
  })

  it('lists the released and expired versions in releaseHistory with facetName, id, versionId, type, state, expandUri', async () => {
    const { body } = await list()
    for (const element of body.elements) {
      expect(element.related?.releaseHistory).toEqual(
        [
          [V1, 'expired'],
          [V2, 'released'],
        ].map(([versionId, state]) => ({
          facetName: 'processes',
          id: SEED_ELEMENT,
          versionId,
          type: 'mainProcess',
          state,
          expandUri: `${h.origin}/acme-collection/acme-tenant/_api/rest/facets/processes/views/detail/elements/${versionId}`,
        })),
      )
    }
  })

  it('finds the element by the id of any of its versions, as the platform does', async () => {
    const byVersion = await list('', V3)
    const byElement = await list()
    expect(byVersion.status).toBe(200)
    expect(byVersion.body).toEqual(byElement.body)
  })

  it('matches element GUIDs case-insensitively', async () => {
    const { status, body } = await list('', SEED_ELEMENT.toUpperCase())
    expect(status).toBe(200)
    expect(body.count).toBe(3)
  })

  it('serves every view of the facet (default, detail, tree)', async () => {
    for (const view of ['default', 'detail', 'tree']) {
      const response = await h.fetch(VERSIONS(SEED_ELEMENT, 'processes', view), { headers: APP_KEY })
      expect(response.status).toBe(200)
    }
  })

  it('answers HEAD with the headers of GET and no body', async () => {
    const response = await h.fetch(VERSIONS(), { method: 'HEAD', headers: APP_KEY })
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('')
  })
})

contract('versions: $resources, $select and $expandRelated', { team: true }, (h) => {
  const get = async (query: string): Promise<{ status: number; body: VersionList & ErrorBody }> => {
    const response = await h.fetch(`${VERSIONS()}${query}`, { headers: APP_KEY })
    return { status: response.status, body: (await response.json()) as VersionList & ErrorBody }
  }

  it('includes every resource when $resources is absent', async () => {
    const { body } = await get('')
    const first = body.elements[0]
    expect(first?.attributes).toBeDefined()
    expect(first?.related).toBeDefined()
    expect(first?.displayNames).toBeDefined()
  })

  it('includes only the named resources', async () => {
    const { body } = await get('?$resources=attributes')
    const first = body.elements[0] ?? ({} as Element)
    expect(first.attributes?.name).toBeDefined()
    expect(first.related).toBeUndefined()
    expect(first.displayNames).toBeUndefined()
    expect(Object.keys(first)).toEqual(['facetName', 'id', 'versionId', 'type', 'state', 'attributes'])

    const both = await get('?$resources=related,displayNames')
    expect(both.body.elements[0]?.attributes).toBeUndefined()
    expect(both.body.elements[0]?.related?.author).toBeDefined()
    expect(both.body.elements[0]?.displayNames).toBeDefined()
  })

  it('answers 400 with the error body for a $resources value that is not one of the six', async () => {
    const { status, body } = await get('?$resources=attributes,versions')
    expect(status).toBe(400)
    expect(body).toEqual({
      data: [{ error: "The value 'versions' is not valid for $resources. Valid values: attributes, related, children, content, displayNames, rootPath." }],
      message: 'An error occurred.',
      output: 'Volatile',
      type: 'Error',
    })
  })

  it('$select keeps only the named attributes and relations; id, versionId, type, state, facetName, displayNames remain', async () => {
    const { status, body } = await get('?$select=name,author')
    expect(status).toBe(200)
    expect(body.count).toBe(3)
    for (const element of body.elements) {
      expect(Object.keys(element)).toEqual(['facetName', 'id', 'versionId', 'type', 'state', 'displayNames', 'attributes', 'related'])
      expect(Object.keys(element.attributes ?? {})).toEqual(['name'])
      expect(Object.keys(element.related ?? {})).toEqual(['author'])
      expect(element.displayNames).toEqual({ '1031': 'Hauptprozess', '1033': 'Main process' })
    }
  })

  it('$select drops every other field: of an element with stereotype, children, content, rootPath and setReadOnly only id, versionId, type, state, facetName, displayNames remain beside the named attributes and relations', async () => {
    const all = await h.fetch(VERSIONS(SUB_PROCESS), { headers: APP_KEY })
    const full = ((await all.json()) as VersionList).elements[0] ?? ({} as Element)
    expect(Object.keys(full)).toEqual(['facetName', 'id', 'versionId', 'type', 'stereotype', 'state', 'displayNames', 'attributes', 'related', 'children', 'content', 'rootPath', 'setReadOnly'])

    const response = await h.fetch(`${VERSIONS(SUB_PROCESS)}?$select=name,owner`, { headers: APP_KEY })
    expect(response.status).toBe(200)
    const selected = ((await response.json()) as VersionList).elements[0] ?? ({} as Element)
    expect(Object.keys(selected)).toEqual(['facetName', 'id', 'versionId', 'type', 'state', 'displayNames', 'attributes', 'related'])
    expect(selected).toMatchObject({ id: SUB_PROCESS, type: 'subProcess', state: 'released', displayNames: full.displayNames, attributes: { name: full.attributes?.name } })
    expect(Object.keys(selected.attributes ?? {})).toEqual(['name'])
    expect(Object.keys(selected.related ?? {})).toEqual(['owner'])
  })

  it('$select with $resources: the resources named and the fields that always remain, nothing else', async () => {
    const response = await h.fetch(`${VERSIONS(SUB_PROCESS)}?$select=name&$resources=attributes,children`, { headers: APP_KEY })
    const selected = ((await response.json()) as VersionList).elements[0] ?? ({} as Element)
    expect(Object.keys(selected)).toEqual(['facetName', 'id', 'versionId', 'type', 'state', 'attributes'])
  })

  it('$expandRelated turns the named relation into full elements and leaves the others as references', async () => {
    const { body } = await get('?$expandRelated=author')
    const author = body.elements[0]?.related?.author?.[0] as Element & { expandUri: string; creationId: string }
    expect(author.id).toBe(ALICE_ELEMENT)
    expect(author.creationId).toBe(ALICE_ELEMENT)
    expect(author.attributes?.name).toEqual({ '127': 'Alice Example' })
    expect(author.displayNames).toEqual({ '1031': 'Benutzer', '1033': 'User' })
    expect(author.expandUri).toContain(`/facets/users/views/detail/elements/${ALICE_ELEMENT}`)
    const owner = body.elements[0]?.related?.owner?.[0]
    expect(owner?.attributes).toBeUndefined()
    expect(Object.keys(owner ?? {})).toEqual(['facetName', 'id', 'creationId', 'type', 'expandUri'])
  })

  it('$expandRelated expands releaseHistory items into the full versions they name', async () => {
    const { body } = await get('?$expandRelated=releaseHistory')
    const history = body.elements[2]?.related?.releaseHistory as Element[]
    expect(history.map((e) => [e.versionId, e.state, e.attributes?.version?.['127']])).toEqual([
      [V1, 'expired', '1.0'],
      [V2, 'released', '2.0'],
    ])
  })
})

contract('versions: $filter', { team: true }, (h) => {
  const states = async (filter: string): Promise<{ status: number; states: string[]; body: ErrorBody }> => {
    const response = await h.fetch(`${VERSIONS()}?$filter=${encodeURIComponent(filter)}`, { headers: APP_KEY })
    const body = (await response.json()) as VersionList & ErrorBody
    return { status: response.status, states: body.elements?.map((e) => e.state) ?? [], body }
  }

  it.each([
    ["state -eq 'released'", ['released']],
    ["name -eq 'Order to Cash'", ['expired', 'released', 'inProcess']],
    ["name -eq 'Auftragsabwicklung'", ['expired', 'released', 'inProcess']],
    ["name -eq 'order to cash'", []],
    ["version -ne '1.0'", ['released', 'inProcess']],
    ["contains(attributes,'Credit check')", ['released']],
    ["Contains(name,'Cash')", ['expired', 'released', 'inProcess']],
    ["StartsWith(version,'2')", ['released', 'inProcess']],
    ["EndsWith(version,'.0')", ['expired', 'released']],
    ['IsNull(relOn)', ['inProcess']],
    ['isReleased -eq true', ['released']],
    ["state -eq 'expired' OR state -eq 'inProcess'", ['expired', 'inProcess']],
    ["(state -eq 'expired' OR state -eq 'inProcess') AND version -ne '2.1'", ['expired']],
    ["state -eq 'released' or state -eq 'expired' and version -eq '2.0'", ['released']],
    ["type -eq 'mainProcess' AND name -eq 'Order to Cash' AND state -ne 'inProcess'", ['expired', 'released']],
  ])('%s', async (filter, expected) => {
    const result = await states(filter)
    expect(result.status).toBe(200)
    expect(result.states).toEqual(expected)
  })

  it.each([
    ["version -gt '1.0'", 'The operator -gt is currently not supported'],
    ["Custom(name,'x')", 'The operator Custom is currently not supported'],
    ["name Equal 'x'", 'The operator Equal is currently not supported'],
    ["NOT state -eq 'released'", 'The operator NOT is currently not supported'],
  ])('answers 400 for the unsupported operator in %s', async (filter, message) => {
    const result = await states(filter)
    expect(result.status).toBe(400)
    expect(result.body).toEqual({ data: [{ error: message }], message: 'An error occurred.', output: 'Volatile', type: 'Error' })
  })

  it.each(["name -eq", "(state -eq 'released'", "name -eq 'unterminated", "state -eq 'a' AND", "contains(name)"])(
    'answers 400 naming the syntax error in %s',
    async (filter) => {
      const result = await states(filter)
      expect(result.status).toBe(400)
      expect(result.body.type).toBe('Error')
      expect(result.body.data[0]?.error).toMatch(/^Invalid \$filter: /)
    },
  )
})

contract('versions: paging, api-version and lookups', { team: true }, (h) => {
  const get = async (path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: VersionList & ErrorBody }> => {
    const response = await h.fetch(path, { headers: { ...APP_KEY, ...headers } })
    return { status: response.status, body: (await response.json()) as VersionList & ErrorBody }
  }

  it('pages with $page (from 1) and $pageSize; count is the number returned', async () => {
    const first = await get(`${VERSIONS()}?$pageSize=2`)
    expect(first.body.count).toBe(2)
    expect(first.body.elements.map((e) => e.state)).toEqual(['expired', 'released'])
    const second = await get(`${VERSIONS()}?$page=2&$pageSize=2`)
    expect(second.body.count).toBe(1)
    expect(second.body.elements.map((e) => e.state)).toEqual(['inProcess'])
    const beyond = await get(`${VERSIONS()}?$page=3&$pageSize=2`)
    expect(beyond.body).toEqual({ count: 0, elements: [] })
  })

  it.each(['$page=0', '$pageSize=-1', '$pageSize=two', '$page=1.5'])('answers 400 for %s', async (query) => {
    const { status, body } = await get(`${VERSIONS()}?${query}`)
    expect(status).toBe(400)
    expect(body.data[0]?.error).toMatch(/is not valid for \$page/)
  })

  it('accepts api-version 4.0 in the header or the query, and no api-version at all', async () => {
    expect((await get(VERSIONS(), { 'api-version': '4.0' })).status).toBe(200)
    expect((await get(`${VERSIONS()}?api-version=4.0`)).status).toBe(200)
    expect((await get(VERSIONS())).status).toBe(200)
  })

  it('answers 400 with the error body for any other api-version', async () => {
    const { status, body } = await get(VERSIONS(), { 'api-version': '2.0' })
    expect(status).toBe(400)
    expect(body).toEqual({
      data: [{ error: "The api-version '2.0' is not supported by this operation. Supported: 4.0." }],
      message: 'An error occurred.',
      output: 'Volatile',
      type: 'Error',
    })
    expect((await get(`${VERSIONS()}?api-version=3.0`)).status).toBe(400)
  })

  it.each([
    [VERSIONS(SEED_ELEMENT, 'processes', 'default', 'acme-collection/other-tenant'), "Storage 'acme-collection/other-tenant' not found."],
    [VERSIONS(SEED_ELEMENT, 'risks'), "Facet 'risks' not found."],
    [VERSIONS(SEED_ELEMENT, 'processes', 'diagram'), "View 'diagram' not found in facet 'processes'."],
    [VERSIONS('00000000-0000-4000-8000-000000000000'), "Element '00000000-0000-4000-8000-000000000000' not found."],
    [VERSIONS('not-a-guid'), "Element 'not-a-guid' not found."],
  ])('answers 404 with the error body for %s, to a caller that may read any storage', async (path, message) => {
    const granted = await h.emu.apiKeys.create({ kind: 'app', permissions: [{ action: 'read', resource: 'storage/*' }] })
    const { status, body } = await get(path, { authorization: `AppKey ${granted.key}` })
    expect(status).toBe(404)
    expect(body).toEqual({ data: [{ error: message }], message: 'An error occurred.', output: 'Volatile', type: 'Error' })
  })

  it('a storage the caller has no permission on is 403 whether it exists or not: its existence is not revealed', async () => {
    const known = await get(VERSIONS(), BOB_KEY)
    const unknown = await get(VERSIONS(SEED_ELEMENT, 'processes', 'default', 'acme-collection/other-tenant'))
    for (const { status, body } of [known, unknown]) {
      expect(status).toBe(403)
      expect(body).toEqual({ data: [{ error: 'Access is denied' }], message: 'An error occurred.', output: 'Volatile', type: 'Unauthorized' })
    }
  })

  it('lists generated elements too, each with versions oldest first', async () => {
    const generated = h.emu.elements.list({ facet: 'processes' }).filter((e) => e.id !== SEED_ELEMENT && e.id !== SUB_PROCESS)
    expect(generated.length).toBe(20)
    const sample = generated[7]
    if (!sample) throw new Error('no generated element')
    const { status, body } = await get(VERSIONS(sample.id))
    expect(status).toBe(200)
    expect(body.elements.map((e) => e.versionId)).toEqual(sample.versions.map((v) => v.versionId))
    const states = body.elements.map((e) => e.state)
    expect(states.slice(0, -2).every((s) => s === 'expired')).toBe(true)
  })

  it('finds a generated element by the id of any of its versions, in its own facet only', async () => {
    const sample = h.emu.elements.list({ facet: 'processes' }).filter((e) => e.id !== SEED_ELEMENT)[11]
    if (!sample) throw new Error('no generated element')
    const byElement = await get(VERSIONS(sample.id))
    expect(byElement.body.elements.map((e) => e.versionId)).toEqual(sample.versions.map((v) => v.versionId))
    for (const { versionId } of sample.versions) expect(await get(VERSIONS(versionId))).toEqual(byElement)
    expect((await get(VERSIONS(sample.id, 'users'))).status).toBe(404)
  })

  it('answers 404 for a generated element removed at run time, and finds it again after a reset', async () => {
    const sample = h.emu.elements.list({ facet: 'processes' }).filter((e) => e.id !== SEED_ELEMENT)[3]
    if (!sample) throw new Error('no generated element')
    const before = await get(VERSIONS(sample.id))
    expect(before.status).toBe(200)
    h.emu.elements.remove(sample.id)
    expect((await get(VERSIONS(sample.id))).status).toBe(404)
    expect((await get(VERSIONS(sample.versions[0]?.versionId ?? ''))).status).toBe(404)
    await h.emu.reset()
    expect(await get(VERSIONS(sample.id))).toEqual(before)
  })
})

contract(
  'versions: versionListKey "values"',
  { team: true },
  (h) => {
    it('names the list "values" when the option asks for it', async () => {
      const body = (await (await h.fetch(VERSIONS(), { headers: APP_KEY })).json()) as { count: number; values: Element[] }
      expect(Object.keys(body)).toEqual(['count', 'values'])
      expect(body.values.map((e) => e.state)).toEqual(['expired', 'released', 'inProcess'])
    })
  },
  { versionListKey: 'values' },
)

contract(
  'versions: versionListKey "both"',
  { team: true },
  (h) => {
    it('carries the list under both names', async () => {
      const body = (await (await h.fetch(VERSIONS(), { headers: APP_KEY })).json()) as { count: number; values: Element[]; elements: Element[] }
      expect(Object.keys(body)).toEqual(['count', 'elements', 'values'])
      expect(body.values).toEqual(body.elements)
    })
  },
  { versionListKey: 'both' },
)

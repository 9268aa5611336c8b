/**
 * Resources of the user's own (issue 26, part 2): `{"resources": [{name, path, idField, auth,
 * records}]}` serves list, read, create, replace and delete on an `@msw/data` collection seeded
 * from `records`; a missing record is the platform's 404, a body that is not a JSON object a 400
 * naming the problem; reset restores the records; the control plane (`/__svc-mock/resources/…`)
 * and `emu.resources.get(name)` list and edit the same records.
 */
import { expect, it } from 'vitest'
import type { RoutesDocumentInput } from '../../src/index.js'
import { APP_KEY, contract } from '../support/harness.js'

const POOLS = '/integration/api/pools'
const SEED = [
  { id: 'p-1', name: 'SAP ECC' },
  { id: 'p-2', name: 'Salesforce' },
]
const DOCUMENT: RoutesDocumentInput = {
  resources: [
    { name: 'pools', path: POOLS, records: SEED },
    { name: 'jobs', path: '/integration/api/jobs', idField: 'jobId', auth: 'none', records: [{ jobId: 7, state: 'DONE' }] },
  ],
}

contract(
  'your resources',
  (h) => {
    const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = APP_KEY): Promise<{ status: number; body: unknown; headers: Headers }> => {
      const response = await h.fetch(path, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      })
      const text = await response.text()
      return { status: response.status, body: text === '' ? undefined : JSON.parse(text), headers: response.headers }
    }

    it('lists the seed records as a JSON array, and reads one by id', async () => {
      expect(await send('GET', POOLS)).toMatchObject({ status: 200, body: SEED })
      expect(await send('GET', `${POOLS}/p-2`)).toMatchObject({ status: 200, body: SEED[1] })
    })

    it('creates a record (201, its id made when absent), replaces it, and deletes it (204)', async () => {
      const made = await send('POST', POOLS, { name: 'Workday' })
      expect(made.status).toBe(201)
      const id = (made.body as { id: string }).id
      expect(id).toMatch(/^[0-9a-f-]{36}$/)
      expect(made.body).toEqual({ id, name: 'Workday' })
      expect((await send('POST', POOLS, { id: 'p-9', name: 'Given' })).body).toEqual({ id: 'p-9', name: 'Given' })
      expect((await send('GET', POOLS)).body).toEqual([...SEED, { id, name: 'Workday' }, { id: 'p-9', name: 'Given' }])
      expect(await send('PUT', `${POOLS}/${id}`, { name: 'Workday HR' })).toMatchObject({ status: 200, body: { name: 'Workday HR', id } })
      expect((await send('GET', `${POOLS}/${id}`)).body).toEqual({ name: 'Workday HR', id })
      expect((await send('DELETE', `${POOLS}/${id}`)).status).toBe(204)
      expect((await send('GET', `${POOLS}/${id}`)).status).toBe(404)
    })

    it('answers a missing record with the platform\'s 404, on read, replace and delete', async () => {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const answer = await send(method, `${POOLS}/nope`, method === 'PUT' ? { name: 'x' } : undefined)
        expect(answer.status, method).toBe(404)
        expect(answer.body).toEqual({ title: 'Not Found', status: 404, detail: 'No pools record with id "nope".', errorCode: 'NOT_FOUND' })
      }
    })

    it('answers a create or replace whose body is not a JSON object with a 400 naming the problem, and stores nothing', async () => {
      const cases: Array<[unknown, RegExp]> = [
        ['[1,2]', /the body is an array/],
        ['"text"', /the body is a string/],
        ['null', /the body is null/],
        ['{not json', /The body is not JSON/],
        ['', /The body is empty/],
      ]
      for (const [body, detail] of cases) {
        for (const [method, path] of [['POST', POOLS], ['PUT', `${POOLS}/p-1`]] as const) {
          const answer = await send(method, path, body)
          expect(answer.status, `${method} ${String(body)}`).toBe(400)
          expect(answer.body).toMatchObject({ title: 'Bad Request', status: 400, errorCode: 'BAD_REQUEST', detail: expect.stringMatching(detail) })
        }
      }
      const wrongId = await send('PUT', `${POOLS}/p-1`, { id: 'p-2', name: 'x' })
      expect(wrongId.status).toBe(400)
      expect((wrongId.body as { detail: string }).detail).toContain('is not the id in the path')
      const twice = await send('POST', POOLS, { id: 'p-1', name: 'again' })
      expect(twice.status).toBe(409)
      expect((await send('GET', POOLS)).body).toEqual(SEED)
    })

    it('refuses an id that is not one path segment (empty, ".", ".." or holding "/") with a 400 naming it, on create and replace, over the control plane and in-process, and stores nothing', async () => {
      for (const id of ['.', '..', 'a/b', '']) {
        const made = await send('POST', POOLS, { id, name: 'x' })
        expect(made.status, JSON.stringify(id)).toBe(400)
        expect(made.body).toMatchObject({ errorCode: 'BAD_REQUEST', detail: expect.stringContaining(`"${id}"`) })
        expect((made.body as { detail: string }).detail).toContain('one path segment')
        const put = await h.control<{ error: string }>('POST', '/resources/pools', { id, name: 'x' })
        expect(put.status, JSON.stringify(id)).toBe(400)
        expect(put.body.error).toContain(`"${id}"`)
        await expect(h.emu.resources.get('pools').create({ id, name: 'x' })).rejects.toThrow(/one path segment/)
      }
      const replaced = await send('PUT', `${POOLS}/a%2Fb`, { name: 'x' })
      expect(replaced.status).toBe(400)
      expect((replaced.body as { detail: string }).detail).toContain('"a/b"')
      expect((await send('GET', POOLS)).body).toEqual(SEED)
    })

    it('refuses a route file whose record has an id that is not one path segment, naming the record', async () => {
      const refused = await h.control<{ error: string; field: string }>('POST', '/routes', { resources: [{ name: 'dots', path: '/dots', records: [{ id: 'd-1' }, { id: '..' }] }] })
      expect(refused.status).toBe(400)
      expect(refused.body.field).toBe('resources[0].records[1].id')
      expect(refused.body.error).toMatch(/"\.\.".*one path segment/)
    })

    it('keeps a member named __proto__ as the member it is: in a route file\'s records, a POST and a PUT body, and what GET answers', async () => {
      const records = JSON.parse('[{"id": "r-1", "__proto__": {"admin": true}, "nested": {"__proto__": 1}}]') as unknown
      expect((await h.control('POST', '/routes', { resources: [{ name: 'roles', path: '/roles', records }] })).status).toBe(201)
      const text = async (path: string): Promise<string> => await (await h.fetch(path, { headers: APP_KEY })).text()
      expect(await text('/roles/r-1')).toBe('{"id":"r-1","__proto__":{"admin":true},"nested":{"__proto__":1}}')
      const post = await send('POST', '/roles', '{"id": "r-2", "__proto__": "kept"}')
      expect(post.status).toBe(201)
      expect(await text('/roles/r-2')).toBe('{"id":"r-2","__proto__":"kept"}')
      expect((await send('PUT', '/roles/r-2', '{"__proto__": ["still"]}')).status).toBe(200)
      expect(await text('/roles/r-2')).toBe('{"__proto__":["still"],"id":"r-2"}')
      expect(await text('/roles')).toBe('[{"id":"r-1","__proto__":{"admin":true},"nested":{"__proto__":1}},{"__proto__":["still"],"id":"r-2"}]')
      expect(Object.keys(h.emu.resources.get('roles').get('r-2') ?? {})).toEqual(['__proto__', 'id'])
    })

    it('goes through the gate as the resource says: a valid credential by default, or none', async () => {
      const refused = await send('GET', POOLS, undefined, {})
      expect(refused.status).toBe(401)
      expect(refused.headers.get('www-authenticate')).toBe('Bearer')
      expect(refused.body).toEqual({ error: 'Unauthorized' })
      expect(await send('GET', '/integration/api/jobs/7', undefined, {})).toMatchObject({ status: 200, body: { jobId: 7, state: 'DONE' } })
    })

    it('keys records by the id field the resource names, a number kept a number', async () => {
      const made = await send('POST', '/integration/api/jobs', { jobId: 8, state: 'NEW' }, {})
      expect(made).toMatchObject({ status: 201, body: { jobId: 8, state: 'NEW' } })
      expect(await send('PUT', '/integration/api/jobs/8', { state: 'RUNNING' }, {})).toMatchObject({ status: 200, body: { state: 'RUNNING', jobId: 8 } })
    })

    it('keeps a replaced record in its place in the list', async () => {
      await send('POST', POOLS, { id: 'p-3', name: 'Workday' })
      expect((await send('PUT', `${POOLS}/p-1`, { name: 'SAP S/4' })).status).toBe(200)
      expect((await h.control('POST', '/resources/pools', { id: 'p-2', name: 'Salesforce EU' })).status).toBe(200)
      expect((await send('GET', POOLS)).body).toEqual([
        { name: 'SAP S/4', id: 'p-1' },
        { id: 'p-2', name: 'Salesforce EU' },
        { id: 'p-3', name: 'Workday' },
      ])
    })

    it('creates a record once when two creates of its id arrive together: the other is a 409', async () => {
      const answers = await Promise.all([send('POST', POOLS, { id: 'p-7', name: 'First' }), send('POST', POOLS, { id: 'p-7', name: 'Second' })])
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409])
      const pools = h.emu.resources.get('pools')
      const inProcess = await Promise.allSettled([pools.create({ id: 'p-8' }), pools.create({ id: 'p-8' })])
      expect(inProcess.map((r) => r.status)).toEqual(['fulfilled', 'rejected'])
      expect(pools.list().map((r) => r.id)).toEqual(['p-1', 'p-2', 'p-7', 'p-8'])
    })

    it('goes back to its records on reset', async () => {
      await send('POST', POOLS, { id: 'p-3', name: 'New' })
      await send('DELETE', `${POOLS}/p-1`)
      await send('PUT', `${POOLS}/p-2`, { name: 'Renamed' })
      expect(await h.control('POST', '/reset')).toMatchObject({ status: 200 })
      expect((await send('GET', POOLS)).body).toEqual(SEED)
    })

    it('is listed and edited over the control plane: list, records, one record, add or replace, delete', async () => {
      expect((await h.control('GET', '/resources')).body).toEqual([
        { name: 'pools', path: POOLS, idField: 'id', count: 2 },
        { name: 'jobs', path: '/integration/api/jobs', idField: 'jobId', count: 1 },
      ])
      expect((await h.control('GET', '/resources/pools')).body).toEqual(SEED)
      expect((await h.control('GET', '/resources/pools/p-1')).body).toEqual(SEED[0])
      expect(await h.control('POST', '/resources/pools', { id: 'p-1', name: 'Changed' })).toEqual({ status: 200, body: { id: 'p-1', name: 'Changed' } })
      expect(await h.control('POST', '/resources/pools', { id: 'p-4', name: 'Added' })).toEqual({ status: 201, body: { id: 'p-4', name: 'Added' } })
      expect((await send('GET', `${POOLS}/p-1`)).body).toEqual({ id: 'p-1', name: 'Changed' })
      expect((await h.control('DELETE', '/resources/pools/p-4')).status).toBe(204)
      expect((await send('GET', `${POOLS}/p-4`)).status).toBe(404)
    })

    it('refuses over the control plane what it cannot do, naming what is wrong', async () => {
      const unknown = await h.control<{ error: string; field: string }>('GET', '/resources/pool')
      expect(unknown.status).toBe(404)
      expect(unknown.body.error).toContain('did you mean "pools"?')
      expect((await h.control('GET', '/resources/pools/nope')).status).toBe(404)
      expect((await h.control('DELETE', '/resources/pools/nope')).status).toBe(404)
      const notObject = await h.control<{ error: string }>('POST', '/resources/pools', [1])
      expect(notObject.status).toBe(400)
      expect(notObject.body.error).toContain('the body is an array')
    })

    it('is the same collection in-process: emu.resources.get(name)', async () => {
      const pools = h.emu.resources.get('pools')
      expect(pools.list()).toEqual(SEED)
      await pools.create({ id: 'p-5', name: 'From code' })
      expect((await send('GET', `${POOLS}/p-5`)).body).toEqual({ id: 'p-5', name: 'From code' })
      await send('POST', POOLS, { id: 'p-6', name: 'Over HTTP' })
      expect(pools.get('p-6')).toEqual({ id: 'p-6', name: 'Over HTTP' })
      expect(pools.findMany({ name: 'Over HTTP' })).toEqual([{ id: 'p-6', name: 'Over HTTP' }])
      expect(pools.delete('p-6')).toBe(true)
      expect(() => h.emu.resources.get('pool')).toThrow(/did you mean "pools"/)
    })
  },
  { routes: DOCUMENT },
)

/**
 * The versions operation as the OpenAPI document shows it: its five path parameters, its query
 * options, the Element it answers and the platform's OperationResult error body (tied to the wire
 * type the code builds).
 */
import * as z from 'zod'
import { RATE_LIMIT_HEADERS } from '../auth/index.js'
import { JsonValue } from '../kernel/json.js'
import type { RouteDoc } from '../kernel/route.js'
import { API_VERSION } from './constants.js'
import { ELEMENT_STATES } from './model.js'
import { RESOURCES } from './query.js'
import type { OperationResultBody } from './wire.js'

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

/** The platform's OperationResult: every 4xx and 5xx of the operation (401 and 403 with `type` Unauthorized; the 429 of a rate limit too). */
export const OperationResult = z.object({
  data: z.array(z.object({ error: z.string() })),
  message: z.string().meta({ description: '`An error occurred.`' }),
  output: z.enum(['Volatile', 'Permanent', 'Dialog', 'Inline']),
  type: z.enum(['Critical', 'Error', 'Warning', 'Success', 'Unauthorized']),
}).meta({ id: 'OperationResult' })
const operationResultShape: Same<z.output<typeof OperationResult>, OperationResultBody> = true

const LanguageValues = z.record(z.string(), JsonValue).meta({ description: 'Values by integer language key: 1031 German, 1033 English, 127 language-independent.' })

const Reference = z.object({
  facetName: z.string(),
  id: z.string(),
  versionId: z.string().optional(),
  creationId: z.string().optional().meta({ description: 'On items without a version.' }),
  type: z.string(),
  state: z.string().optional(),
  expandUri: z.string().meta({ description: 'The item\'s own address on {base_url}.' }),
  stereotype: z.string().optional(),
}).meta({ id: 'ElementReference' })

export const Element = z.object({
  facetName: z.string(),
  id: z.string(),
  versionId: z.string(),
  type: z.string(),
  stereotype: z.string().optional(),
  state: z.string().meta({ description: `One of ${ELEMENT_STATES.join(', ')}.` }),
  displayNames: z.record(z.string(), z.string()).optional(),
  attributes: z.record(z.string(), LanguageValues).optional(),
  related: z.record(z.string(), z.array(Reference)).optional().meta({ description: 'Relations by name (author, changedBy, owner, releaseHistory, …): references, or full elements for the relations named in $expandRelated.' }),
  children: z.array(Reference).optional(),
  content: z.array(Reference).optional(),
  rootPath: z.array(Reference).optional(),
  setReadOnly: z.boolean().nullable().optional(),
}).meta({ id: 'Element' })

const VersionList = z.object({
  count: z.number().int().meta({ description: 'The number of items returned.' }),
  elements: z.array(Element).optional().meta({ description: 'The versions, oldest first (the name is `values`, or both, with --version-list-key).' }),
  values: z.array(Element).optional(),
})

const list = (description: string): z.ZodOptional<z.ZodString> => z.string().optional().meta({ description })

export const VERSIONS_DOC: RouteDoc = {
  description:
    'The versions of an element, oldest first: expired, released, inProcess. Needs a valid credential and `read` on the storage (and the scope --versions-scope names, none by default). ' +
    'A storage the caller may not read is a 403, known or not; to a caller that may read it, an unknown storage, facet, view or element is a 404. Every error has the platform\'s OperationResult body.',
  params: {
    collectionId: 'The collection, e.g. acme-collection.',
    storageId: 'The storage (tenant), e.g. acme-tenant.',
    facetId: 'The facet, e.g. processes.',
    viewId: 'A view of the facet, e.g. default.',
    elementId: 'The element id (a GUID).',
  },
  query: z.object({
    $resources: list(`Comma-separated, any of ${RESOURCES.join(', ')}; absent: all.`),
    $select: list('Comma-separated attribute and relation names to keep. Of the other fields only id, versionId, type, state, facetName and displayNames remain (stereotype, children, content, rootPath and setReadOnly are left out).'),
    $expandRelated: list('Comma-separated relation names whose items become full elements.'),
    $filter: list("The platform's filter syntax: name -eq 'x', -ne, contains(attr,'x'), StartsWith(attr,'x'), EndsWith(attr,'x'), IsNull(attr), AND, OR, parentheses."),
    $page: z.string().regex(/^\d+$/).optional().meta({ description: 'Page number, from 1.' }),
    $pageSize: z.string().regex(/^\d+$/).optional().meta({ description: 'Items per page.' }),
    'api-version': z.literal(API_VERSION).optional().meta({ description: `Absent means ${API_VERSION}; any other value is a 400. Also accepted as a header.` }),
  }),
  headers: z.object({ 'api-version': z.literal(API_VERSION).optional().meta({ description: `Absent means ${API_VERSION}.` }) }),
  security: ['bearer', 'appKey'],
  responses: {
    '200': {
      description: 'The versions. A static-key call carries `Deprecation: true`.',
      content: { 'application/json': VersionList },
      headers: { Deprecation: '`true` on a call made with a static key (user API key or application key).' },
    },
    '400': { description: 'A bad query option or api-version.', content: { 'application/json': OperationResult } },
    '401': { description: 'No, an unknown or an expired credential (`type` Unauthorized).', content: { 'application/json': OperationResult }, headers: { 'WWW-Authenticate': 'Bearer, with the error.' } },
    '403': { description: 'A missing scope or permission (`type` Unauthorized); a storage the caller may not read is a 403 whether it exists or not.', content: { 'application/json': OperationResult } },
    '404': { description: 'Unknown storage, facet, view or element, to a caller that may read the storage.', content: { 'application/json': OperationResult } },
    '429': { description: 'Scenario `rate-limited`, in the operation\'s error body, with the rate-limit headers.', content: { 'application/json': OperationResult }, headers: RATE_LIMIT_HEADERS },
    '500': { description: 'Scenario `versions-server-error` (`type` Critical).', content: { 'application/json': OperationResult } },
  },
}

void operationResultShape

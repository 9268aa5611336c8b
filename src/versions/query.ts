/**
 * The query options of the versions operation, read and checked before anything is looked up:
 * `api-version` (header or query; absent means 4.0), `$filter`, `$resources`, `$select`,
 * `$expandRelated`, `$page` and `$pageSize`. A bad value answers 400 with the error body.
 */
import { API_VERSION } from './constants.js'
import { type FilterNode, FilterError, parseFilter } from './filter.js'
import { badRequest } from './wire.js'

export const RESOURCES = ['attributes', 'related', 'children', 'content', 'displayNames', 'rootPath'] as const
export type Resource = (typeof RESOURCES)[number]

export interface VersionsQuery {
  readonly filter: FilterNode | undefined
  /** Resources to include; all six when `$resources` is absent. */
  readonly resources: ReadonlySet<Resource>
  /** Attribute and relation names to keep; undefined keeps all. */
  readonly select: ReadonlySet<string> | undefined
  /** Relations whose items become full elements. */
  readonly expand: ReadonlySet<string>
  readonly page: number
  readonly pageSize: number | undefined
  /** True when $resources, $select or $expandRelated change the stored JSON of each version. */
  readonly reshapes: boolean
}

const ALL_RESOURCES: ReadonlySet<Resource> = new Set(RESOURCES)

export function checkApiVersion(headers: Headers, url: URL): void {
  const fromHeader = headers.get('api-version')
  const value = (fromHeader ?? url.searchParams.get('api-version'))?.trim()
  if (value === undefined || value === '' || value === API_VERSION) return
  throw badRequest(`The api-version '${value}' is not supported by this operation. Supported: ${API_VERSION}.`)
}

function list(url: URL, name: string): string[] | undefined {
  const values = url.searchParams.getAll(name)
  if (values.length === 0) return undefined
  const items = values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '')
  return items.length === 0 ? undefined : items
}

function positiveInt(url: URL, name: string): number | undefined {
  const raw = url.searchParams.get(name)
  if (raw === null || raw.trim() === '') return undefined
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 1) throw badRequest(`The value '${raw}' is not valid for ${name}: it must be a whole number of 1 or more.`)
  return n
}

export function parseVersionsQuery(url: URL): VersionsQuery {
  const filterText = url.searchParams.get('$filter')
  let filter: FilterNode | undefined
  if (filterText !== null && filterText.trim() !== '') {
    try {
      filter = parseFilter(filterText)
    } catch (error) {
      if (error instanceof FilterError) throw badRequest(error.message)
      throw error
    }
  }
  const resourceNames = list(url, '$resources')
  let resources = ALL_RESOURCES
  if (resourceNames) {
    const unknown = resourceNames.filter((r) => !ALL_RESOURCES.has(r as Resource))
    if (unknown.length > 0) {
      throw badRequest(`The value '${unknown.join(',')}' is not valid for $resources. Valid values: ${RESOURCES.join(', ')}.`)
    }
    resources = new Set(resourceNames as Resource[])
  }
  const selectNames = list(url, '$select')
  const expandNames = list(url, '$expandRelated')
  const page = positiveInt(url, '$page') ?? 1
  const pageSize = positiveInt(url, '$pageSize')
  return {
    filter,
    resources,
    select: selectNames ? new Set(selectNames) : undefined,
    expand: new Set(expandNames ?? []),
    page,
    pageSize,
    reshapes: resources.size < RESOURCES.length || selectNames !== undefined || expandNames !== undefined,
  }
}

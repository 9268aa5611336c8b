/**
 * A route file (or an in-process route document, or the body of `POST /__svc-mock/routes`) that
 * svc-mock refuses: the message names the file, the route or resource (its index, and its id or
 * name when it has one), the field, and the rule, with the closest valid name where there is one.
 * At start it is exit 2; at run time a 400.
 */
import { SvcMockError } from '../kernel/errors.js'

export class RouteFileError extends SvcMockError<'ERR_ROUTES'> {
  readonly code = 'ERR_ROUTES'
  /** The file, or `inline routes #N` for a document given in code or over the control plane. */
  readonly file: string
  /** `routes[2] (id "pools.read")`, `resources[0] (name "pools")`, or empty for the document itself. */
  readonly item: string
  /** The field inside the route or resource (`response.bodyFile`), or empty. */
  readonly field: string
  readonly rule: string
  constructor(file: string, item: string, field: string, rule: string) {
    const where = [item, field === '' ? '' : `field ${field}`].filter((part) => part !== '').join(', ')
    super(`Invalid routes file ${file}${where === '' ? '' : `, ${where}`}: ${rule}`)
    this.file = file
    this.item = item
    this.field = field
    this.rule = rule
  }

  /** The document-level path of the field (`routes[2].response.bodyFile`), for a 400's `field`. */
  get path(): string {
    const index = /^(\w+\[\d+\])/.exec(this.item)?.[1] ?? ''
    return [index, this.field].filter((part) => part !== '').join('.')
  }
}

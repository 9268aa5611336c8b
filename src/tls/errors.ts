/**
 * The TLS folder's one error, apart from the rest of it: `import 'svc-mock'` exports the class,
 * and the certificate code behind it loads only when HTTPS or the CA is asked for.
 */
import { SvcMockError } from '../kernel/errors.js'

/** The local CA folder holds something svc-mock cannot use. */
export class LocalCaError extends SvcMockError<'ERR_LOCAL_CA'> {
  readonly code = 'ERR_LOCAL_CA'
  /** The CA's folder. */
  readonly folder: string
  constructor(folder: string, message: string) {
    super(message)
    this.folder = folder
  }
}

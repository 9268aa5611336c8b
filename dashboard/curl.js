// @ts-check
/**
 * Copy as curl: a journal entry as the curl command that sends the same request again. The
 * journal never holds a secret, so credentials and secret fields come out as placeholders to fill
 * in (`Basic <credentials>`, `client_secret=<client_secret>`), never as the journal's
 * `[redacted]`. No DOM here: a unit test runs it in Node.
 */

/** @typedef {import('../src/index.js').JournalEntry} JournalEntry */

/** Headers curl sets itself, or that describe only the browser or the connection. */
const SKIPPED = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'accept-encoding', 'user-agent', 'origin', 'referer'])

/**
 * @param {JournalEntry} entry
 * @returns {{ command: string, bodyMissing: boolean }} `bodyMissing`: the request had a body the
 *   journal did not keep as text (multipart, or over 64 KB), so the command sends none.
 */
export function toCurl(entry) {
  const method = entry.method === 'HEAD' ? ' --head' : entry.method === 'GET' ? '' : ` -X ${quote(entry.method)}`
  const lines = [`curl${method} ${quote(withPlaceholders(`${entry.origin}${entry.path}`, 'query'))}`]
  for (const [name, value] of Object.entries(entry.request.headers)) {
    if (SKIPPED.has(name) || name.startsWith('sec-')) continue
    lines.push(`-H ${quote(`${name}: ${headerValue(name, value)}`)}`)
  }
  const text = entry.request.bodyText
  const type = entry.request.headers['content-type'] ?? ''
  if (text !== undefined) lines.push(`--data-raw ${quote(withPlaceholders(text, /x-www-form-urlencoded/i.test(type) ? 'query' : 'json'))}`)
  const length = Number(entry.request.headers['content-length'] ?? '0')
  const bodyMissing = text === undefined && (length > 0 || entry.request.body !== undefined) && entry.method !== 'GET' && entry.method !== 'HEAD'
  // One option per line, joined by backslash-newline: the shell reads it as one command.
  return { command: lines.join(' \\\n  '), bodyMissing }
}

/**
 * @param {string} name
 * @param {string} value
 */
function headerValue(name, value) {
  if (!value.includes('[redacted]')) return value
  const scheme = /^(\S+)\s+\[redacted\]$/.exec(value)?.[1]
  if (scheme) return `${scheme} ${/^basic$/i.test(scheme) ? '<base64 of client_id:client_secret>' : '<credentials>'}`
  return `<${name}>`
}

/**
 * Redacted values as `<name>` placeholders: in a query string or urlencoded form, or in JSON.
 * @param {string} text
 * @param {'query' | 'json'} kind
 */
function withPlaceholders(text, kind) {
  if (kind === 'json') return text.replace(/"([^"\\]+)"(\s*):(\s*)"\[redacted\]"/g, '"$1"$2:$3"<$1>"')
  return text.replace(/([?&]|^)([^=&?#]+)=(?:%5Bredacted%5D|\[redacted\])/gi, '$1$2=<$2>')
}

/**
 * One shell word, single-quoted (POSIX sh, bash, zsh).
 * @param {string} word
 */
export function quote(word) {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`
}

/**
 * Ids of generated elements and of their versions: version-4 UUIDs that carry which element (its
 * index) and which of its versions (0 for the element itself, k for its k-th version) they name,
 * under a mask drawn from the seed. A lookup reads the index back from the id alone, so it finds
 * one element of 100,000 without making the others or keeping a table of their ids.
 *
 * The first 64 bits are a hash of (seed, index, version); the last 64 hold the index, the version
 * and a fixed tag, XORed with a hash of the first 64. Reading an id undoes the mask, checks the tag,
 * and makes the id again from what it found: an id that was not made here never matches.
 */
import { hashWords } from './element-stream.js'

/** 24 bits every generated id carries under its mask. */
const TAG = 0x5eed1d
/** Versions an id can name (six bits). */
const MAX_VERSION = 63
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

export interface GeneratedIdParts {
  readonly index: number
  /** 0: the element's id; k >= 1: the id of its k-th version (oldest first). */
  readonly version: number
}

export function generatedId(seed: number, index: number, version: number): string {
  if (version > MAX_VERSION) throw new RangeError(`a generated element has at most ${MAX_VERSION} versions`)
  const w0 = hashWords([seed, index, version, 1])
  const w1 = ((hashWords([seed, index, version, 2]) & 0xffff0fff) | 0x4000) >>> 0
  const w2 = ((((version << 24) | TAG) ^ hashWords([seed, w0, w1, 3])) & 0x3fffffff) | 0x80000000
  const w3 = (index ^ hashWords([seed, w0, w1, 4])) >>> 0
  return uuidText(w0, w1, w2, w3)
}

/** The index and version an id made by `generatedId(seed, …)` names; undefined for any other id. */
export function readGeneratedId(seed: number, id: string): GeneratedIdParts | undefined {
  const text = id.toLowerCase()
  if (!GUID.test(text)) return undefined
  const w0 = Number.parseInt(text.slice(0, 8), 16)
  const w1 = Number.parseInt(text.slice(9, 13) + text.slice(14, 18), 16)
  const w2 = Number.parseInt(text.slice(19, 23) + text.slice(24, 28), 16)
  const w3 = Number.parseInt(text.slice(28, 36), 16)
  const payload = (w2 ^ hashWords([seed, w0, w1, 3])) & 0x3fffffff
  if ((payload & 0xffffff) !== TAG) return undefined
  const version = payload >>> 24
  const index = (w3 ^ hashWords([seed, w0, w1, 4])) >>> 0
  return generatedId(seed, index, version) === text ? { index, version } : undefined
}

const HEX_CODES = Array.from('0123456789abcdef', (c) => c.charCodeAt(0))
const DASH = 45
const codes: number[] = []

/**
 * The UUID text of four 32-bit words, made from character codes: one flat string (a store lists
 * 100,000 of them; joined pieces would each keep a tree of their parts).
 */
function uuidText(w0: number, w1: number, w2: number, w3: number): string {
  codes.length = 0
  const put = (word: number, digits: number): void => {
    for (let shift = digits * 4 - 4; shift >= 0; shift -= 4) codes.push(HEX_CODES[(word >>> shift) & 0xf] ?? 0)
  }
  put(w0, 8)
  codes.push(DASH)
  put(w1 >>> 16, 4)
  codes.push(DASH)
  put(w1, 4)
  codes.push(DASH)
  put(w2 >>> 16, 4)
  codes.push(DASH)
  put(w2, 4)
  put(w3, 8)
  return String.fromCharCode(...codes)
}

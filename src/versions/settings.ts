/**
 * The settings of the versions operation (the `versions` section of the settings tree).
 */
import * as z from 'zod'

export const VersionsSettings = z.object({
  /** Name of the list in the answer: `elements` (the platform's examples), `values` (its field table) or both. */
  listKey: z.enum(['elements', 'values', 'both']).default('elements'),
  /** OAuth scope the operation needs; null: none beyond a valid credential. */
  requiredScope: z.string().min(1).nullable().default(null),
})
export type VersionsSettings = z.infer<typeof VersionsSettings>

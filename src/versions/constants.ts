/**
 * The versions operation's fixed values, in one place.
 */

/** The API version the operation belongs to (`api-version`); absent means this one. */
export const API_VERSION = '4.0'

/** `{base_url}/{collectionId}/{storageId}/_api/rest/facets/{facetId}/views/{viewId}/elements/{elementId}/versions` */
export const VERSIONS_PATH = '/:collectionId/:storageId/_api/rest/facets/:facetId/views/:viewId/elements/:elementId/versions'

// The request every in-process row sends: the versions GET of the fixture element, AppKey.
export const VERSIONS_URL =
  'https://acme.svc-mock.test/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/0f8fad5b-d9cb-469f-a165-70867728950e/versions'
export const AUTH = 'AppKey svcmock-app-key'

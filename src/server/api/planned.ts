/**
 * Operations of the interface specification that later issues build. They are declared in the
 * OpenAPI document now so clients can see the whole interface, and answer 501 `not_implemented`
 * until their issue lands and removes them from this list.
 */
export interface PlannedOperation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: `/${string}`;
  tag: string;
  summary: string;
  staff?: boolean;
}

export const plannedOperations: PlannedOperation[] = [
  { method: 'GET', path: '/account/config', tag: 'account', summary: 'Sign-in configuration' },
  { method: 'GET', path: '/account/me', tag: 'account', summary: 'The signed-in user, or null' },
  { method: 'POST', path: '/account/auth/google', tag: 'account', summary: 'Sign in with a Google ID token' },
  { method: 'POST', path: '/account/auth/logout', tag: 'account', summary: 'Sign out' },
  { method: 'GET', path: '/account/favorites', tag: 'account', summary: 'The favorites list' },
  { method: 'PUT', path: '/account/favorites/{slug}', tag: 'account', summary: 'Add a favorite' },
  { method: 'DELETE', path: '/account/favorites/{slug}', tag: 'account', summary: 'Remove a favorite' },
  { method: 'POST', path: '/account/favorites/merge', tag: 'account', summary: 'Merge a local list into the stored favorites' },
  { method: 'GET', path: '/admin/seo/stats', tag: 'staff', summary: 'Queue, publication and browse-page statistics', staff: true },
  { method: 'POST', path: '/admin/seo/publish', tag: 'staff', summary: 'Publish now, within the daily cap', staff: true },
  { method: 'POST', path: '/admin/seo/refresh-counts', tag: 'staff', summary: 'Recount artist and browse-page sizes', staff: true },
];

